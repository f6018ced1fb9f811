/**
 * The prompt history of the interactive mode, one file per workspace in the
 * rienda home (`history/<project id>.jsonl`, one JSON string per line,
 * mode 0600): Up/Down in the editor walk it.
 *
 * - At most {@link MAX_HISTORY} prompts are kept; the file is rewritten with
 *   the newest ones when it grows past twice that.
 * - A missing, unreadable or damaged file is an empty history, never an error.
 *
 * @module
 */

import { join } from "node:path";
import { projectId } from "../sessions/project.ts";

/** Prompts kept per workspace. */
export const MAX_HISTORY = 500;

/** The history file of `workdir` under the rienda home. */
export async function historyPath(home: string, workdir: string): Promise<string> {
  return join(home, "history", `${await projectId(workdir)}.jsonl`);
}

/** The stored prompts, oldest first. */
export async function loadHistory(path: string): Promise<string[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch {
    return [];
  }
  const prompts: string[] = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value === "string") prompts.push(value);
    } catch {
      // a torn or foreign line: skipped
    }
  }
  return prompts.slice(-MAX_HISTORY);
}

/** Appends a prompt (best effort: a failure to write loses only the history). */
export async function appendHistory(path: string, prompt: string): Promise<void> {
  try {
    await Deno.mkdir(join(path, ".."), { recursive: true, mode: 0o700 });
    await Deno.writeTextFile(path, `${JSON.stringify(prompt)}\n`, { append: true, mode: 0o600 });
    const lines = (await Deno.readTextFile(path)).split("\n").length - 1;
    if (lines > 2 * MAX_HISTORY) {
      const kept = await loadHistory(path);
      await Deno.writeTextFile(path, kept.map((entry) => `${JSON.stringify(entry)}\n`).join(""), {
        mode: 0o600,
      });
    }
  } catch {
    // the history is a convenience: never fail a turn over it
  }
}
