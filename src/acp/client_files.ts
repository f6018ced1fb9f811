/**
 * The editor's files (ACP `fs/read_text_file`, `fs/write_text_file`) as the
 * file tools' {@link EditorFiles}, when the client advertises them.
 *
 * - Only paths inside the session's workspace (on real paths) go through
 *   the editor; any other path is the disk's, under the tools' usual rules,
 *   so a model can never make the editor read or write outside its project.
 * - A client that reads but does not write gets its reads; writes then go
 *   to the disk (and the other way round).
 * - Every write through the editor is reported with the text it replaced,
 *   so the tool call's `diff` shows the buffer's change, not the disk's.
 *
 * @module
 */

import type * as acp from "@agentclientprotocol/sdk";
import type { EditorFiles } from "../tools/editor_files.ts";
import { writeFileAtomic } from "../tools/text_file.ts";
import { isInsideWorkspace } from "../tools/tool_paths.ts";

/** What the client advertised of `fs`. */
export interface ClientFsCapabilities {
  readonly readTextFile: boolean;
  readonly writeTextFile: boolean;
}

/** One write through the editor: the text before (null: none) and after. */
export interface ClientWrite {
  readonly path: string;
  readonly oldText: string | null;
  readonly newText: string;
}

/** The editor's files, and where their writes are reported. */
export interface ClientFiles extends EditorFiles {
  /** Receives each write through the editor (the prompt running sets it). */
  onWrite: ((write: ClientWrite) => void) | null;
}

/** What {@link createClientFiles} reads and writes through. */
export interface ClientFilesOptions {
  readonly client: acp.AgentContext;
  readonly sessionId: string;
  readonly workdir: string;
  readonly capabilities: ClientFsCapabilities;
}

/** The editor's files of one session; null when the client advertises neither method. */
export function createClientFiles(options: ClientFilesOptions): ClientFiles | null {
  const { client, sessionId, workdir, capabilities } = options;
  if (!capabilities.readTextFile && !capabilities.writeTextFile) return null;
  const readText = async (path: string, signal: AbortSignal): Promise<string> => {
    if (!capabilities.readTextFile) return await Deno.readTextFile(path, { signal });
    const { content } = await client.request(
      "fs/read_text_file",
      { sessionId, path },
      { cancellationSignal: signal, stopWaitingOnCancel: true },
    );
    return content;
  };
  const files: ClientFiles = {
    onWrite: null,
    handles: (path) => isInsideWorkspace(workdir, path),
    readText,
    async writeText(path, text, signal) {
      const oldText = await readText(path, signal).catch(() => null);
      if (capabilities.writeTextFile) {
        await client.request(
          "fs/write_text_file",
          { sessionId, path, content: text },
          { cancellationSignal: signal, stopWaitingOnCancel: true },
        );
      } else {
        await writeFileAtomic(path, new TextEncoder().encode(text));
      }
      files.onWrite?.({ path, oldText, newText: text });
    },
  };
  return files;
}
