/**
 * What agent files written for Claude Code or opencode mean in rienda
 * (docs/formats.md, "Agent files of other tools"): their tool names, the
 * keys rienda ignores, and the keys close enough to a rienda key to be a
 * typo.
 *
 * @module
 */

import { distance } from "fastest-levenshtein";

/** The tools of the built-in agent `default`, and of a peer-folder agent without `tools:`. */
export const DEFAULT_TOOLS: readonly string[] = [
  "read",
  "write",
  "edit",
  "grep",
  "find",
  "ls",
  "shell",
];

/** Claude Code's tool names → rienda's built-ins. */
const CLAUDE_TOOLS: Readonly<Record<string, string>> = {
  Read: "read",
  Write: "write",
  Edit: "edit",
  MultiEdit: "edit",
  Bash: "shell",
  Grep: "grep",
  Glob: "find",
  LS: "ls",
  WebFetch: "http",
  Task: "agent",
  Agent: "agent",
};

/** opencode's tool names (the keys of its `tools:` map) → rienda's built-ins. */
const OPENCODE_TOOLS: Readonly<Record<string, string>> = {
  read: "read",
  write: "write",
  edit: "edit",
  patch: "edit",
  bash: "shell",
  grep: "grep",
  glob: "find",
  list: "ls",
  webfetch: "http",
  task: "agent",
};

/** Peer tools rienda has no counterpart for: a warning, not a failure. */
const NO_COUNTERPART: ReadonlySet<string> = new Set([
  "AskUserQuestion",
  "BashOutput",
  "ExitPlanMode",
  "KillBash",
  "KillShell",
  "ListMcpResourcesTool",
  "NotebookEdit",
  "NotebookRead",
  "ReadMcpResourceTool",
  "Skill",
  "SlashCommand",
  "TodoRead",
  "TodoWrite",
  "WebSearch",
  "codesearch",
  "lsp",
  "question",
  "skill",
  "todoread",
  "todowrite",
  "websearch",
]);

/** What a peer tool name means: a rienda tool, or nothing (with the reason). */
export type PeerTool =
  /** `agents`: Claude Code's `Agent(worker, researcher)`, whom `agent` may call. */
  | { readonly kind: "tool"; readonly name: string; readonly agents?: readonly string[] }
  | { readonly kind: "ignored"; readonly label: string };

/**
 * A name of a `tools:` list or string: Claude Code's names map to the
 * built-ins (`Agent(worker, researcher)` to `agent` narrowed to those ids), its tools without a counterpart and its argument patterns
 * (`Bash(git diff:*)`, which rienda cannot enforce, so the tool is not
 * granted) and namespaced tools of other tools (`subagent-catalog:search`)
 * are ignored; any other name is returned as it is.
 */
export function peerListTool(name: string): PeerTool {
  const delegating = /^(?:Task|Agent)\((.*)\)$/s.exec(name);
  if (delegating !== null) {
    const agents = (delegating[1] ?? "").split(",").map((id) => id.trim()).filter((id) =>
      id !== ""
    );
    return { kind: "tool", name: "agent", agents };
  }
  if (Object.hasOwn(CLAUDE_TOOLS, name)) return { kind: "tool", name: CLAUDE_TOOLS[name] ?? name };
  if (NO_COUNTERPART.has(name) && /^[A-Z]/.test(name)) return { kind: "ignored", label: name };
  // Another tool's namespaced tool (`subagent-catalog:search`); `mcp:` is rienda's own.
  if (name.includes(":") && !name.startsWith("mcp:")) return { kind: "ignored", label: name };
  const pattern = /^([A-Za-z]+)\(.*\)$/s.exec(name);
  if (
    pattern !== null &&
    (Object.hasOwn(CLAUDE_TOOLS, pattern[1] ?? "") || NO_COUNTERPART.has(pattern[1] ?? ""))
  ) {
    return { kind: "ignored", label: name };
  }
  return { kind: "tool", name };
}

/** A key of opencode's `tools:` map: its names (and Claude Code's) map to the built-ins. */
export function peerMapTool(name: string): PeerTool {
  if (Object.hasOwn(OPENCODE_TOOLS, name)) {
    return { kind: "tool", name: OPENCODE_TOOLS[name] ?? name };
  }
  if (NO_COUNTERPART.has(name)) return { kind: "ignored", label: name };
  if (name.includes("*")) return { kind: "ignored", label: name };
  return peerListTool(name);
}

/** Keys that only style an agent in its own tool (`color`): ignored without a word. */
export const COSMETIC_KEYS: ReadonlySet<string> = new Set(["color"]);

/** Keys of Claude Code and opencode agents that rienda ignores (one warning per file). */
export const FOREIGN_KEYS: ReadonlySet<string> = new Set([
  "background",
  "color",
  "disable",
  "disabled",
  "disallowedTools",
  "hidden",
  "isolation",
  "maxSteps",
  "mcpServers",
  "memory",
  "mode",
  "options",
  "permissionMode",
  "prompt",
  "skills",
  "steps",
  "top_p",
]);

/**
 * The rienda key `key` is probably a typo of, or undefined: at most two
 * edits away and fewer than half the key's letters (`tols`, `modle`,
 * `Descripton`).
 */
export function closeKey(key: string, keys: readonly string[]): string | undefined {
  let best: { key: string; distance: number } | undefined;
  for (const candidate of keys) {
    const d = distance(key.toLowerCase(), candidate);
    if (d > 2 || d > Math.floor(candidate.length / 2)) continue;
    if (best === undefined || d < best.distance) best = { key: candidate, distance: d };
  }
  return best?.key;
}
