/**
 * What a workspace adds to every run's system prompt: its project
 * instructions (`AGENTS.md`, else `CLAUDE.md`, in each folder from the
 * project root down to the workspace, each file its own block), its skills catalog
 * (docs/formats.md, "The rienda home") and the environment block
 * (`environment.ts`).
 *
 * - Both are read at the start of every run, so edits apply to the next run.
 * - The system prompt is the agent body, then the instructions, then the
 *   catalog, then the environment, each part in its own labelled block; a
 *   skill body is never inlined. Compaction never summarises any of it.
 * - Problems are diagnostics (reported once per run), never failures.
 * - What a project's files say is text from outside, as a tool result is:
 *   {@link maskedContext} hides the keys in it before it joins the prompt.
 *
 * ```text
 * <project-instructions file="AGENTS.md">
 * …
 * </project-instructions>
 * ```
 *
 * @module
 */

import { detectEnvironment, type Environment, environmentBlock } from "./environment.ts";
import { type Instructions, loadInstructions } from "./instructions.ts";
import { loadSkills, type Skill } from "./skills.ts";
import type { RefuseFile } from "./project_text.ts";

export type { Instructions } from "./instructions.ts";
export type { Skill } from "./skills.ts";
export type { Environment } from "./environment.ts";
export type { RefuseFile } from "./project_text.ts";

/** The instructions and skills of a workspace, with the problems found. */
export interface WorkspaceContext {
  /** From the project root down to the workspace, root first. */
  readonly instructions: readonly Instructions[];
  readonly skills: readonly Skill[];
  /** Null when `environment_context: false`. */
  readonly environment: Environment | null;
  readonly diagnostics: readonly string[];
}

/** How {@link loadWorkspaceContext} reads a workspace. */
export interface WorkspaceReading {
  /** Whether to detect the environment block. */
  readonly environment: boolean;
  /** Files never read for the prompt, by their real path (rienda's own files). */
  readonly refuse?: RefuseFile;
}

/** Reads the instructions and skills of `workdir`, and its environment unless turned off. */
export async function loadWorkspaceContext(
  workdir: string,
  options: WorkspaceReading = { environment: true },
): Promise<WorkspaceContext> {
  const [instructions, skills, environment] = await Promise.all([
    loadInstructions(workdir, options.refuse),
    loadSkills(workdir, options.refuse),
    options.environment ? detectEnvironment(workdir) : null,
  ]);
  return {
    instructions: instructions.instructions,
    skills: skills.skills,
    environment,
    diagnostics: [...instructions.diagnostics, ...skills.diagnostics],
  };
}

/**
 * `context` with `mask` applied to what its project files say (the
 * instructions, each skill's name and description): a repository can link
 * `AGENTS.md` to the `.env` beside it, so that text may hold keys.
 */
export function maskedContext(
  context: WorkspaceContext,
  mask: (text: string) => string,
): WorkspaceContext {
  return {
    ...context,
    instructions: context.instructions.map((file) => ({ ...file, text: mask(file.text) })),
    skills: context.skills.map((skill) => ({
      ...skill,
      name: mask(skill.name),
      description: mask(skill.description),
    })),
  };
}

/**
 * The system prompt of a run: the agent body, then the workspace's
 * instructions, skills catalog and environment in labelled blocks.
 *
 * @example
 * ```ts
 * systemPromptWith("You help.", { instructions: [], skills: [], environment: null, diagnostics: [] });
 * // "You help."
 * ```
 */
export function systemPromptWith(body: string, context: WorkspaceContext): string {
  const parts = body.trim() === "" ? [] : [body.trimEnd()];
  if (context.instructions.length > 0) parts.push(instructionsBlock(context.instructions));
  if (context.skills.length > 0) parts.push(skillsBlock(context.skills));
  if (context.environment !== null) parts.push(environmentBlock(context.environment));
  return parts.join("\n\n");
}

function instructionsBlock(files: readonly Instructions[]): string {
  const [only] = files;
  const intro = files.length === 1 && only !== undefined
    ? `The workspace's project instructions, from its ${only.file} file; follow them:`
    : "The project's instructions, from its root down to the workspace (paths relative to " +
      "the workspace; a later file is about a narrower part and wins); follow them:";
  return [
    intro,
    ...files.flatMap((file) => [
      `<project-instructions file="${file.file}">`,
      file.text,
      "</project-instructions>",
    ]),
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
