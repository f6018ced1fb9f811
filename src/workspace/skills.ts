/**
 * Skills of a workspace: `.agents/skills/<dir>/SKILL.md`, each with `name`
 * and `description` in its frontmatter. Only the catalog (name, description,
 * path) reaches the system prompt; the model reads a body when it needs it.
 * A `SKILL.md` is read only when it is a regular file inside the project
 * (`project_text.ts`).
 *
 * ```markdown
 * ---
 * name: release
 * description: Cuts a release: changelog, version bump, tag.
 * ---
 * 1. Run the tests. …
 * ```
 *
 * @module
 */

import { join } from "node:path";
import { splitFrontmatter } from "../agents/frontmatter.ts";
import { findProjectRoot } from "../host/project_root.ts";
import { readProjectText, type RefuseFile } from "./project_text.ts";
import { parseYaml } from "../config/yaml_source.ts";
import { errorMessage, isRecord } from "../base/unknown.ts";

/** The largest SKILL.md read; a larger one is left out, with a diagnostic. */
const MAX_SKILL_BYTES = 1024 * 1024;

/** Where skills live, relative to the workspace. */
export const SKILLS_DIR = ".agents/skills";

/** The file that defines a skill inside its folder. */
export const SKILL_FILE = "SKILL.md";

/** One entry of the skills catalog. */
export interface Skill {
  readonly name: string;
  readonly description: string;
  /** The `SKILL.md` path relative to the workspace, with `/` separators. */
  readonly path: string;
}

/** The skills of a workspace and the problems of broken ones. */
export interface SkillsResult {
  /** Sorted by folder name. */
  readonly skills: readonly Skill[];
  /** One line per problem: `skill "<dir>": <problem> (<path>)`. */
  readonly diagnostics: readonly string[];
}

/**
 * Reads every `SKILL.md` under `.agents/skills/` of `workdir`. A missing
 * folder means no skills. A skill without a description is left out; one
 * without a name is listed under its folder name; a name that differs from
 * the folder is kept as written. Each problem is a diagnostic, and so is a
 * file `refuse` refuses.
 */
export async function loadSkills(workdir: string, refuse?: RefuseFile): Promise<SkillsResult> {
  const root = join(workdir, SKILLS_DIR);
  const folders: string[] = [];
  try {
    for await (const entry of Deno.readDir(root)) {
      if (entry.isDirectory && !entry.name.startsWith(".")) folders.push(entry.name);
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return { skills: [], diagnostics: [] };
    }
    return { skills: [], diagnostics: [`skills: cannot read ${root}: ${errorMessage(error)}`] };
  }
  folders.sort();
  const skills: Skill[] = [];
  const diagnostics: string[] = [];
  const realRoot = await Deno.realPath(await findProjectRoot(workdir));
  for (const folder of folders) {
    const path = `${SKILLS_DIR}/${folder}/${SKILL_FILE}`;
    let read;
    try {
      read = await readProjectText(join(workdir, path), realRoot, MAX_SKILL_BYTES, refuse);
    } catch (error) {
      diagnostics.push(`skill "${folder}": cannot read the file: ${errorMessage(error)} (${path})`);
      continue;
    }
    if (read.kind === "absent") continue; // a folder without a skill
    if (read.kind === "refused") {
      diagnostics.push(`skill "${folder}": the file ${read.why}, so it was left out (${path})`);
      continue;
    }
    if (!read.complete) {
      diagnostics.push(
        `skill "${folder}": the file is larger than 1 MiB, so it was left out (${path})`,
      );
      continue;
    }
    const parsed = parseSkill(read.text, folder, path);
    diagnostics.push(
      ...parsed.problems.map((problem) => `skill "${folder}": ${problem} (${path})`),
    );
    if (parsed.skill !== null) skills.push(parsed.skill);
  }
  return { skills, diagnostics };
}

/**
 * One skill from the text of its `SKILL.md`, and its problems. `folder`
 * is the skill's folder name, `path` its workspace-relative file.
 *
 * @example
 * ```ts
 * parseSkill("---\nname: a\ndescription: Does A.\n---\nSteps", "a", ".agents/skills/a/SKILL.md");
 * // { skill: { name: "a", description: "Does A.", path: ".agents/skills/a/SKILL.md" }, problems: [] }
 * ```
 */
export function parseSkill(
  text: string,
  folder: string,
  path: string,
): { skill: Skill | null; problems: string[] } {
  let yaml: string;
  try {
    yaml = splitFrontmatter(text, path).yaml;
  } catch {
    return {
      skill: null,
      problems: ['missing frontmatter (start the file with "---", name:, description:, "---")'],
    };
  }
  const parsed = parseYaml(yaml);
  if (!parsed.ok) {
    return { skill: null, problems: [`invalid frontmatter: ${parsed.message}`] };
  }
  const fields = parsed.source.value;
  if (!isRecord(fields)) {
    return {
      skill: null,
      problems: ["the frontmatter must be a mapping with name and description"],
    };
  }
  const problems: string[] = [];
  const name = oneLine(fields.name);
  const description = oneLine(fields.description);
  if (name === "") problems.push(`missing name (add "name: ${folder}")`);
  else if (name !== folder) {
    problems.push(`name "${name}" does not match its folder (rename one to the other)`);
  }
  if (description === "") {
    problems.push("missing description (the skill is left out until it has one)");
    return { skill: null, problems };
  }
  return { skill: { name: name === "" ? folder : name, description, path }, problems };
}

function oneLine(value: unknown): string {
  return typeof value === "string" ? value.replace(/\s+/g, " ").trim() : "";
}
