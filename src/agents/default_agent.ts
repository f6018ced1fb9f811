/**
 * The built-in agent `default`: what `rienda run "prompt"` runs when no
 * `-a`, `-f`, `-s` or `-c` says otherwise (docs/cli.md). A file
 * `$RIENDA_HOME/agents/default.md` replaces it; `rienda init` writes this
 * text there so users can see and change it.
 *
 * Its tools are the built-in ones and, with `mcp:*`, those of every enabled
 * MCP server of config.yaml (docs/mcp.md).
 *
 * It names no model: the run takes `-m`, else `default_model`, else the
 * first built-in provider with a key (the app decides, `default_model.ts`).
 *
 * @module
 */

import { type AgentDefinition, parseAgentFile } from "./agent_file.ts";
import { DEFAULT_TOOLS } from "./peer_dialect.ts";

/** The id of the built-in agent. */
export const DEFAULT_AGENT_ID = "default";

/** What stands for the file of the built-in agent in messages. */
export const BUILTIN_AGENT_PATH = "(built-in agent default)";

/** The agent file of the built-in agent, as `rienda init` writes it. */
export const DEFAULT_AGENT_MD = `---
description: A concise coding assistant for the current workspace.
tools: [${DEFAULT_TOOLS.join(", ")}, mcp:*]
---
You are a coding assistant working in the user's workspace. You read, search
and change its files with your tools and run commands with shell.

- Look before you answer: find files with find, ls and grep, and read them
  before you explain or change them. Never guess at code you have not read.
- Change files with edit (exact replacements: copy old_string from what read
  showed) or write (new files, complete rewrites). Keep changes small and in
  the style of the code around them; do not reformat what you did not need
  to touch.
- After a change, run the project's own tests, type checks or linters with
  shell when it has them, and fix what you broke.
- Paths are relative to the workspace. Stay inside it unless the user asks
  otherwise. Before anything destructive or hard to undo (deleting files,
  rewriting git history, pushing, installing system packages) ask the user.
- Be concise: answer in a few sentences, show code only when it helps, and
  end with what you changed and how you checked it.
`;

/** The built-in agent `default`. */
export function builtinDefaultAgent(): AgentDefinition {
  return parseAgentFile(DEFAULT_AGENT_MD, BUILTIN_AGENT_PATH, DEFAULT_AGENT_ID);
}

/** Whether `agent` is the built-in agent (not a file). */
export function isBuiltinAgent(agent: Pick<AgentDefinition, "path">): boolean {
  return agent.path === BUILTIN_AGENT_PATH;
}
