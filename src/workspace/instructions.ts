/**
 * Project instructions: the first of `AGENTS.md`, `CLAUDE.md` found in the
 * workdir (docs/formats.md, "The rienda home").
 *
 * @module
 */

import { join } from "node:path";
import { errorMessage } from "../unknown.ts";

/** The file names looked for, in order of preference. */
export const INSTRUCTION_FILES = ["AGENTS.md", "CLAUDE.md"] as const;

/** The instructions file of a workspace. */
export interface Instructions {
  /** The file name, e.g. `AGENTS.md`. */
  readonly file: string;
  /** The text, trimmed; never empty. */
  readonly text: string;
}

/** What loading the instructions found: the file, if any, and problems that skipped one. */
export interface InstructionsResult {
  readonly instructions: Instructions | null;
  readonly diagnostics: readonly string[];
}

/**
 * Reads the first instructions file of `workdir`. A file that exists but
 * is blank adds nothing; one that cannot be read is a diagnostic.
 */
export async function loadInstructions(workdir: string): Promise<InstructionsResult> {
  for (const file of INSTRUCTION_FILES) {
    let text: string;
    try {
      text = await Deno.readTextFile(join(workdir, file));
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) continue;
      const reason = errorMessage(error);
      return {
        instructions: null,
        diagnostics: [`instructions: cannot read ${join(workdir, file)}: ${reason}`],
      };
    }
    const trimmed = text.replace(/^\uFEFF/, "").replaceAll("\r\n", "\n").trim();
    return { instructions: trimmed === "" ? null : { file, text: trimmed }, diagnostics: [] };
  }
  return { instructions: null, diagnostics: [] };
}
