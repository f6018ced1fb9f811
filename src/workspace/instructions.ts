/**
 * Project instructions: in every folder from the project root
 * (`host/project_root.ts`) down to the workdir, root first, the first of
 * `AGENTS.md`, `CLAUDE.md` (docs/sessions.md, "Project instructions and
 * skills"), each read only when it is a regular file inside the project
 * (`project_text.ts`).
 *
 * @module
 */

import { join, relative } from "node:path";
import { findProjectRoot, foldersDown } from "../host/project_root.ts";
import { errorMessage } from "../base/unknown.ts";
import { readProjectText, type RefuseFile } from "./project_text.ts";

/** The file names looked for in each folder, in order of preference. */
export const INSTRUCTION_FILES = ["AGENTS.md", "CLAUDE.md"] as const;

/** The largest instructions file used (about 64k tokens); a larger one is left out, with a diagnostic. */
const MAX_INSTRUCTIONS_BYTES = 256 * 1024;

/** One instructions file. */
export interface Instructions {
  /** The path relative to the workdir, e.g. `AGENTS.md` or `../../AGENTS.md`. */
  readonly file: string;
  /** The text, trimmed; never empty. */
  readonly text: string;
}

/** What loading the instructions found: the files, root first, and problems that skipped one. */
export interface InstructionsResult {
  readonly instructions: readonly Instructions[];
  readonly diagnostics: readonly string[];
}

/**
 * Reads the instructions files from the project root of `workdir` down to
 * it. A file that exists but is blank adds nothing; one that cannot be read
 * is a diagnostic, and so is one `refuse` refuses.
 */
export async function loadInstructions(
  workdir: string,
  refuse?: RefuseFile,
): Promise<InstructionsResult> {
  const root = await findProjectRoot(workdir);
  const realRoot = await Deno.realPath(root);
  const folders = foldersDown(root, workdir);
  const found = await Promise.all(
    folders.map((folder) => loadFolder(folder, workdir, realRoot, refuse)),
  );
  return {
    instructions: found.flatMap((result) => result.instructions),
    diagnostics: found.flatMap((result) => result.diagnostics),
  };
}

// The first instructions file of `folder` that can be used; one that cannot is a diagnostic,
// and the next name is tried (a refused AGENTS.md link never hides a CLAUDE.md).
async function loadFolder(
  folder: string,
  workdir: string,
  realRoot: string,
  refuse: RefuseFile | undefined,
): Promise<InstructionsResult> {
  const diagnostics: string[] = [];
  for (const name of INSTRUCTION_FILES) {
    const path = join(folder, name);
    let read;
    try {
      read = await readProjectText(path, realRoot, MAX_INSTRUCTIONS_BYTES, refuse);
    } catch (error) {
      diagnostics.push(`instructions: cannot read ${path}: ${errorMessage(error)}`);
      continue;
    }
    if (read.kind === "absent") continue;
    if (read.kind === "refused") {
      diagnostics.push(`instructions: ${path} ${read.why}, so it was left out`);
      continue;
    }
    if (!read.complete) {
      const why = `${path} is larger than 256 KiB, so it was left out (keep instructions short)`;
      return { instructions: [], diagnostics: [...diagnostics, `instructions: ${why}`] };
    }
    const trimmed = read.text.replace(/^\uFEFF/, "").replaceAll("\r\n", "\n").trim();
    const file = relative(workdir, path);
    return { instructions: trimmed === "" ? [] : [{ file, text: trimmed }], diagnostics };
  }
  return { instructions: [], diagnostics };
}
