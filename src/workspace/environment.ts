/**
 * The environment block of every run's system prompt: the workspace path,
 * the platform, today's date and whether the workspace is in a git
 * repository, so the model need not spend tool calls finding out
 * (`environment_context: false` in config.yaml leaves it out).
 *
 * ```text
 * The environment this run works in:
 * <environment>
 * workspace: /home/ana/project
 * platform: linux (x86_64)
 * date: 2025-06-01
 * git repository: yes
 * </environment>
 * ```
 *
 * @module
 */

import { dirname, join } from "node:path";

/** What the block says. */
export interface Environment {
  readonly workdir: string;
  /** `linux (x86_64)`. */
  readonly platform: string;
  /** Today's local date, `YYYY-MM-DD`. */
  readonly date: string;
  /** Whether the workspace or a folder above it holds `.git`. */
  readonly git: boolean;
}

/** `date` as a local `YYYY-MM-DD`. */
export function localDate(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

async function inGitRepository(workdir: string): Promise<boolean> {
  for (let dir = workdir;; dir = dirname(dir)) {
    try {
      await Deno.stat(join(dir, ".git"));
      return true;
    } catch {
      // not here: look above
    }
    if (dirname(dir) === dir) return false;
  }
}

/** The environment of a run in `workdir` at `now`. */
export async function detectEnvironment(workdir: string, now = new Date()): Promise<Environment> {
  return {
    workdir,
    platform: `${Deno.build.os} (${Deno.build.arch})`,
    date: localDate(now),
    git: await inGitRepository(workdir),
  };
}

/** The block of the system prompt. */
export function environmentBlock(environment: Environment): string {
  return [
    "The environment this run works in:",
    "<environment>",
    `workspace: ${environment.workdir}`,
    `platform: ${environment.platform}`,
    `date: ${environment.date}`,
    `git repository: ${environment.git ? "yes" : "no"}`,
    "</environment>",
  ].join("\n");
}
