/**
 * Claude Code hook scripts in a test workspace: writing one where Claude Code
 * keeps them (`.claude/hooks/`), and waiting for the mark a running one leaves.
 *
 * @module
 */

import type { TestEnv } from "./env.ts";
import type { RiendaProcess } from "./rienda.ts";

/** Writes `.claude/hooks/<name>` of the workspace (mode 755) with `text`. */
export async function writeClaudeScript(env: TestEnv, name: string, text: string): Promise<void> {
  await Deno.mkdir(`${env.workdir}/.claude/hooks`, { recursive: true });
  await Deno.writeTextFile(`${env.workdir}/.claude/hooks/${name}`, text, { mode: 0o755 });
}

/** Whether `path` exists. */
export function exists(path: string): Promise<boolean> {
  return Deno.stat(path).then(() => true, () => false);
}

/** Resolves once `path` exists (a hook touched it); fails after 20 s with the process's stderr. */
export async function fileAppears(path: string, process: RiendaProcess): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await exists(path))) {
    if (Date.now() > deadline) throw new Error(`the hook never started: ${process.stderrText()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
