/**
 * Which file of the workspace a command hook would run (docs/security.md,
 * "Hooks"): a hook of `config.yaml` or of a home agent runs in the
 * workspace, so `[./check.sh]` or `[node, hooks/pre.mjs]` runs what the
 * project holds there. In a project you have not trusted, that is a cloned
 * repository's code run as your hook; the caller refuses it.
 *
 * A hook names a file of the workspace when:
 *
 * - its program is a relative path (`./check.sh`, `hooks/check.sh`), or a
 *   bare name found through a relative `PATH` entry (`.`, or an empty one);
 * - an argument of its own, not an option, is a relative path to a file or
 *   folder that exists there and reads as a path: it holds a `/` or ends in
 *   an extension (`hooks/pre.mjs`, `guard.py`, `~/x.py`, which is not
 *   expanded). An argument that is only a placeholder (`{path}`) is the
 *   call's data, never checked; one that holds one (`hooks/{tool}.mjs`) is
 *   checked as the call expands it.
 *
 * A Claude Code hook's shell string is read word by word the same way
 * ({@link projectFileOfShell}), `$CLAUDE_PROJECT_DIR` standing for the
 * workspace: `"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh` is a file of it.
 *
 * It is checked at every call, so a file the model writes during the run
 * counts too. An option that names a file (`--require=./x.js`) or a module
 * found from the workspace (`python3 -m mod`) is not seen.
 *
 * @module
 */

import { delimiter, isAbsolute, resolve } from "node:path";
import type { HookEntry } from "../config/hook_entries.ts";
import { findExecutable } from "../host/find_executable.ts";
import type { HookAnswer } from "./runnable_hook.ts";

const PLACEHOLDER_ONLY_REGEXP = /^\{(?:tool|event|path)\}$/;
/** An argument that reads as a path: a `/`, or an extension, and no spaces. */
const PATH_LIKE_REGEXP = /^(?!-)(?:[^\s]*\/[^\s]*|[^\s/]*\.[\p{L}\p{N}]+)$/u;

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The file of `cwd` that `argv` (as written) would run or hand its program,
 * as `expanded` (its placeholders replaced for the call) and `PATH` find it,
 * or null when it names none.
 *
 * @example
 * ```ts
 * import { projectFileOf } from "./project_files.ts";
 * const argv = ["/usr/bin/python3", "/home/me/guard.py", "{path}"] as const;
 * await projectFileOf(argv, ["/usr/bin/python3", "/home/me/guard.py", "a.ts"], "/tmp");
 * // null
 * ```
 */
export async function projectFileOf(
  argv: readonly [string, ...string[]],
  expanded: readonly [string, ...string[]],
  cwd: string,
  path = Deno.env.get("PATH") ?? "",
): Promise<string | null> {
  const [program] = argv;
  if (program.includes("/")) {
    if (!isAbsolute(program) && await exists(resolve(cwd, program))) return program;
  } else {
    // Only a relative PATH entry finds a file of the workspace: without one, nothing to walk.
    const dirs = path.split(delimiter);
    const absolute = dirs.filter((dir) => isAbsolute(dir));
    if (absolute.length < dirs.length) {
      const found = await findExecutable(program, { path, cwd });
      const fromAbsolute = await findExecutable(program, {
        path: absolute.join(delimiter),
        cwd,
      });
      if (found !== null && found !== fromAbsolute) return found;
    }
  }
  for (const [i, arg] of expanded.entries()) {
    if (i === 0 || PLACEHOLDER_ONLY_REGEXP.test(argv[i] ?? "")) continue;
    if (isAbsolute(arg) || !PATH_LIKE_REGEXP.test(arg)) continue;
    if (await exists(resolve(cwd, arg))) return arg;
  }
  return null;
}

/** The words of a shell string, as plain as quotes and operators allow. */
const SHELL_SPLIT_REGEXP = /[\s;&|()<>`]+/;
const PROJECT_DIR_REGEXP = /\$(?:CLAUDE_PROJECT_DIR\b|\{CLAUDE_PROJECT_DIR\})/g;

/**
 * The file of `cwd` that the shell string `command` (run with
 * `CLAUDE_PROJECT_DIR` set to `cwd`) would run or hand a program, or null:
 * each word without its quotes, `$CLAUDE_PROJECT_DIR` read as `.`, checked
 * as an argument of {@link projectFileOf} is.
 *
 * @example
 * ```ts
 * import { projectFileOfShell } from "./project_files.ts";
 * await projectFileOfShell("python3 ~/.claude/hooks/check.py", "/tmp");
 * // null (~ is the shell's home)
 * ```
 */
export async function projectFileOfShell(command: string, cwd: string): Promise<string | null> {
  for (const word of command.split(SHELL_SPLIT_REGEXP)) {
    const plain = word.replace(/["']/g, "").replace(PROJECT_DIR_REGEXP, ".");
    if (plain.startsWith("~") || isAbsolute(plain) || !PATH_LIKE_REGEXP.test(plain)) continue;
    if (await exists(resolve(cwd, plain))) return plain;
  }
  return null;
}

/**
 * The file of `cwd` that `entry`, as written, would run (a command's argv,
 * a Claude Code hook's shell string), or null: what `rienda doctor` and
 * `rienda hooks` say refuses every call in a project you have not trusted.
 * A run checks each call as it expands the placeholders.
 */
export function entryProjectFile(
  entry: HookEntry,
  cwd: string,
  path?: string,
): Promise<string | null> {
  switch (entry.kind) {
    case "command":
      return projectFileOf(entry.argv, entry.argv, cwd, path);
    case "claude":
      return projectFileOfShell(entry.command, cwd);
    case "script":
      return Promise.resolve(null);
  }
}

/**
 * The answer of a hook that would run a file of `root`, a project you have
 * not trusted, as `find` looks for one: a failure that is closed whatever
 * the hook's `fail_closed`; null when it may run (`root` absent: trusted).
 */
export async function untrustedRefusal(
  root: string | undefined,
  find: () => Promise<string | null>,
): Promise<HookAnswer | null> {
  if (root === undefined) return null;
  const file = await find();
  if (file === null) return null;
  return {
    kind: "failed",
    problem: `not run: it would run ${JSON.stringify(file)} of ${root}, a project you have not ` +
      "trusted (rienda trust lets its files run as your hooks; an absolute path runs one of yours)",
    closed: true,
  };
}
