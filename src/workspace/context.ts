/**
 * What a workspace adds to every run's system prompt: its project
 * instructions (`AGENTS.md`, else `CLAUDE.md`) and its skills catalog
 * (docs/formats.md, "The rienda home").
 *
 * - Both are read at the start of every run, so edits apply to the next run.
 * - The system prompt is the agent body, then the instructions, then the
 *   catalog, each part in its own labelled block; a skill body is never
 *   inlined. Compaction never summarises any of it.
 * - Problems are diagnostics (reported once per run), never failures.
 *
 * ```text
 * <project-instructions file="AGENTS.md">
 * …
 * </project-instructions>
 * ```
 *
 * @module
 */

import { type Instructions, loadInstructions } from "./instructions.ts";
import { loadSkills, type Skill } from "./skills.ts";

export type { Instructions } from "./instructions.ts";
export type { Skill } from "./skills.ts";

/** The instructions and skills of a workspace, with the problems found. */
export interface WorkspaceContext {
  readonly instructions: Instructions | null;
  readonly skills: readonly Skill[];
  readonly diagnostics: readonly string[];
}

/** Reads the instructions and skills of `workdir`. */
export async function loadWorkspaceContext(workdir: string): Promise<WorkspaceContext> {
  const [instructions, skills] = await Promise.all([
    loadInstructions(workdir),
    loadSkills(workdir),
  ]);
  return {
    instructions: instructions.instructions,
    skills: skills.skills,
    diagnostics: [...instructions.diagnostics, ...skills.diagnostics],
  };
}

/**
 * The system prompt of a run: the agent body, then the workspace's
 * instructions and skills catalog in labelled blocks.
 *
 * @example
 * ```ts
 * systemPromptWith("You help.", { instructions: null, skills: [], diagnostics: [] });
 * // "You help."
 * ```
 */
export function systemPromptWith(body: string, context: WorkspaceContext): string {
  const parts = body.trim() === "" ? [] : [body.trimEnd()];
  if (context.instructions !== null) parts.push(instructionsBlock(context.instructions));
  if (context.skills.length > 0) parts.push(skillsBlock(context.skills));
  return parts.join("\n\n");
}

function instructionsBlock(instructions: Instructions): string {
  return [
    `The workspace's project instructions, from its ${instructions.file} file; follow them:`,
    `<project-instructions file="${instructions.file}">`,
    instructions.text,
    "</project-instructions>",
  ].join("\n");
}

function skillsBlock(skills: readonly Skill[]): string {
  return [
    "Skills are task instructions stored in the workspace. When a task matches a skill's",
    "description, read its file (the path is relative to the workspace) before you start,",
    "and follow it. Do not read a skill that does not match the task.",
    "<skills>",
    ...skills.map((skill) => `- ${skill.name}: ${skill.description} (file: ${skill.path})`),
    "</skills>",
  ].join("\n");
}
