/**
 * How a tool call looks in an editor: its title (the command, the path, the
 * pattern), its ACP `kind` and the files it touches (`locations`), worked out
 * from the tool's name and arguments. Tools rienda does not know (user
 * JavaScript tools, MCP tools) are `other`, titled by their name.
 *
 * @module
 */

import type { ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";
import { resolveToolPath } from "../tools/tool_paths.ts";
import { isRecord } from "../base/unknown.ts";

/** The editor's view of one tool call. */
export interface ToolCallView {
  readonly title: string;
  readonly kind: ToolKind;
  readonly locations: ToolCallLocation[];
}

/** The kind of each built-in tool (docs/tools.md). */
const BUILTIN_KINDS: Readonly<Record<string, ToolKind>> = {
  read: "read",
  ls: "read",
  write: "edit",
  edit: "edit",
  find: "search",
  glob: "search",
  grep: "search",
  shell: "execute",
  http: "fetch",
};

/** The longest title shown; a longer command is cut with an ellipsis. */
const MAX_TITLE_CHARS = 200;

/**
 * The title, kind and locations of a call of `name` with `args` (as the
 * model sent them: possibly not an object) in workspace `workdir`.
 *
 * @example
 * ```ts
 * import { toolCallView } from "./tool_call_view.ts";
 * toolCallView("read", { path: "src/a.ts" }, "/w");
 * // { title: "read src/a.ts", kind: "read", locations: [{ path: "/w/src/a.ts" }] }
 * ```
 */
export function toolCallView(name: string, args: unknown, workdir: string): ToolCallView {
  const kind = BUILTIN_KINDS[name] ?? "other";
  const fields = isRecord(args) ? args : {};
  const text = (field: string) => typeof fields[field] === "string" ? fields[field] : undefined;
  const path = text("path");
  const located = kind === "read" || kind === "edit" || kind === "search";
  const locations = path === undefined || path === "" || !located
    ? []
    : [{ path: resolveToolPath(workdir, path) }];
  const subject = kind === "other"
    ? undefined
    : name === "shell"
    ? text("command")
    : name === "http"
    ? [text("method") ?? "GET", text("url")].filter((part) => part !== undefined).join(" ")
    : kind === "search"
    ? [text("pattern"), path === undefined ? undefined : `in ${path}`]
      .filter((part) => part !== undefined).join(" ")
    : path;
  const title = subject === undefined || subject === "" ? name : `${name} ${oneLine(subject)}`;
  return { title, kind, locations };
}

/** `text` on one line, cut to {@link MAX_TITLE_CHARS}. */
function oneLine(text: string): string {
  const line = text.replace(/\s*\n\s*/g, " ").trim();
  return line.length <= MAX_TITLE_CHARS ? line : `${line.slice(0, MAX_TITLE_CHARS - 1)}…`;
}
