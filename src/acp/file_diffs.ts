/**
 * The `diff` content of a successful `write` or `edit`: the file's text is
 * read when the call is announced — synchronously, inside the event, so
 * before the tool runs — and again once it succeeded; a write the editor did
 * (its buffer, through `fs/write_text_file`) is shown as it was written. Files over
 * {@link MAX_DIFF_BYTES}, binary ones and ones that are not UTF-8 get no
 * diff (the result text still says what changed).
 *
 * @module
 */

import type { ToolCallContent } from "@agentclientprotocol/sdk";
import { looksBinary } from "../tools/text_file.ts";
import { resolveToolPath } from "../tools/tool_paths.ts";
import { isRecord } from "../base/unknown.ts";

/** The largest file shown as a diff. */
export const MAX_DIFF_BYTES = 4 * 1024 * 1024;

const strictDecoder = new TextDecoder("utf-8", { fatal: true });

/** The file of a pending call and its text before the call (null: there was no file). */
interface Before {
  readonly path: string;
  readonly oldText: string | null;
}

/** Remembers the files `write` and `edit` calls are about to change. */
export interface FileDiffs {
  /** Reads the file a `write` or `edit` call will change; other calls are ignored. */
  before(callId: string, name: string, args: unknown): void;
  /** A write the editor did for the call (`client_files.ts`): its diff wins over the disk's. */
  record(callId: string, write: { path: string; oldText: string | null; newText: string }): void;
  /** The diff of the call, once its result came: none when it failed or was not tracked. */
  after(callId: string, isError: boolean): ToolCallContent[];
}

/** Tracks the diffs of one prompt's calls in workspace `workdir`. */
export function createFileDiffs(workdir: string): FileDiffs {
  const pending = new Map<string, Before>();
  const written = new Map<string, ToolCallContent>();
  return {
    record(callId, write) {
      written.set(callId, { type: "diff", ...write });
    },
    before(callId, name, args) {
      if ((name !== "write" && name !== "edit") || !isRecord(args)) return;
      const { path } = args;
      if (typeof path !== "string" || path === "") return;
      const absolute = resolveToolPath(workdir, path);
      const oldText = readText(absolute);
      if (oldText !== undefined) pending.set(callId, { path: absolute, oldText });
    },
    after(callId, isError) {
      const before = pending.get(callId);
      const edited = written.get(callId);
      pending.delete(callId);
      written.delete(callId);
      if (isError) return [];
      if (edited !== undefined) return [edited];
      if (before === undefined) return [];
      const newText = readText(before.path);
      if (newText === undefined || newText === null || newText === before.oldText) return [];
      return [{ type: "diff", path: before.path, oldText: before.oldText, newText }];
    },
  };
}

/** The text of `path`; null when there is no such file; undefined when it cannot be shown. */
function readText(path: string): string | null | undefined {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch (error) {
    return error instanceof Deno.errors.NotFound ? null : undefined;
  }
  if (!info.isFile || info.size > MAX_DIFF_BYTES) return undefined;
  try {
    const bytes = Deno.readFileSync(path);
    return looksBinary(bytes) ? undefined : strictDecoder.decode(bytes);
  } catch {
    return undefined; // unreadable or not UTF-8: the result text is all the editor gets
  }
}
