/**
 * The chat's own hooks (`/hooks add pre-tool|post-tool PROGRAM ARGS...`, as
 * in Orkeon Code): a program and its arguments run around each tool call
 * for the rest of the chat (docs/interactive.md, "/hooks").
 *
 * - The words are split at spaces and never given to a shell: shell syntax
 *   (`;` `&&` `||` `|` `&` `<` `>` `$(` and backquotes) is refused, since
 *   it would not do what it says, and so are quotes, `$NAME`, `${NAME}` and a
 *   word starting with `~`, which would reach the program as written. The placeholders `{tool}` and `{path}`
 *   are those of command hooks (`command_hook.ts`), `{event}` is
 *   `pre-tool` or `post-tool`, all of them in the arguments only (in the
 *   program they are refused); the JSON on standard input is a command
 *   hook's.
 * - Only the exit code counts. A pre-tool hook that exits non-zero, runs
 *   over {@link SESSION_HOOK_TIMEOUT_MS} or cannot start refuses the call:
 *   the model reads `pre-tool hook #N (CMD) exited C: <first line>` (stderr's
 *   first line, else stdout's). A failing post-tool hook appends
 *   `[post-tool hook #N (CMD) exited C: <line>]` to the result.
 *
 * @module
 */

import { commandText, programPlaceholderProblem } from "../config/hook_entries.ts";
import type { HookPoint } from "../engine/hooks.ts";
import { type CommandHookContext, commandStdin, expandArgv } from "./command_hook.ts";
import { firstLine, type HookProcessResult, runHookProcess } from "./hook_process.ts";
import type { HookAnswer, RunnableHook } from "./runnable_hook.ts";

/** How long a session hook may run. */
export const SESSION_HOOK_TIMEOUT_MS = 60_000;

/** When a session hook runs. */
export type SessionHookKind = "pre-tool" | "post-tool";

/** A hook the chat added. */
export interface SessionHook {
  readonly kind: SessionHookKind;
  readonly argv: readonly [string, ...string[]];
}

/** The shell syntax `/hooks add` refuses, as it reads in the message. */
const SHELL_SYNTAX = [";", "&&", "||", "|", "&", "<", ">", "$(", "`"];

/**
 * The hook of `/hooks add KIND PROGRAM ARGS...` (`words` after `add`), or
 * what is wrong with it.
 *
 * @example
 * ```ts
 * import { parseSessionHook } from "./session_hook.ts";
 * parseSessionHook("pre-tool node hooks/pre.mjs {tool}");
 * // { kind: "pre-tool", argv: ["node", "hooks/pre.mjs", "{tool}"] }
 * ```
 */
export function parseSessionHook(words: string): SessionHook | { readonly problem: string } {
  const [kind, ...argv] = words.trim().split(/\s+/).filter((word) => word !== "");
  if (kind !== "pre-tool" && kind !== "post-tool") {
    return { problem: "usage: /hooks add pre-tool|post-tool PROGRAM ARGS..." };
  }
  const [program, ...args] = argv;
  if (program === undefined) return { problem: `usage: /hooks add ${kind} PROGRAM ARGS...` };
  const found = SHELL_SYNTAX.find((syntax) => words.includes(syntax));
  if (found !== undefined) {
    return {
      problem: `a hook is a program and its arguments, run without a shell: ${
        JSON.stringify(found)
      } is shell syntax (put the steps in a script and name the script)`,
    };
  }
  // Quoted words, variables and ~ would reach the program as written: a guard quoted for a shell
  // (`node -e 'process.exit(2)'`) would silently never refuse anything.
  const literal = /['"]|\$\{[^}\s]*\}?|\$[A-Za-z_]\w*|(?:^|\s)~/.exec(words)?.[0].trim();
  if (literal !== undefined) {
    return {
      problem: `a hook is a program and its words split at spaces, never read by a shell: ${
        JSON.stringify(literal)
      } would reach the program as it is (quotes, $VARIABLES and ~ are not read; put the steps in a script and name the script)`,
    };
  }
  const placeholder = programPlaceholderProblem(program);
  if (placeholder !== null) return { problem: placeholder };
  return { kind, argv: [program, ...args] };
}

/** How `/hooks list` and the messages show a session hook: `pre-tool hook #2 (node x.mjs {tool})`. */
export function sessionHookLabel(hook: SessionHook, number: number): string {
  return `${hook.kind} hook #${number} (${commandText(hook.argv)})`;
}

/** Why a session hook failed, after its label: `exited 1: <line>`; null when it exited 0. */
function failure(result: HookProcessResult): string | null {
  switch (result.kind) {
    case "exited": {
      if (result.code === 0) return null;
      const line = firstLine(result.stderr) || firstLine(result.stdout);
      return `exited ${result.code}${line === "" ? "" : `: ${line}`}`;
    }
    case "killed":
      return `was killed by ${result.signal}`;
    case "timeout":
      return `did not finish within ${SESSION_HOOK_TIMEOUT_MS / 1000} s`;
    case "not_started":
      return `cannot start: ${result.problem}`;
    case "interrupted":
      return null;
    default: {
      const never: never = result;
      throw new Error(`unexpected result ${JSON.stringify(never)}`);
    }
  }
}

/** The session hook `hook`, number `number` of `/hooks list`, run for `context`. */
export function createSessionHook(
  hook: SessionHook,
  number: number,
  context: CommandHookContext,
): RunnableHook {
  const label = sessionHookLabel(hook, number);
  const point: HookPoint = hook.kind === "pre-tool" ? "beforeToolExecute" : "afterToolExecute";
  // Orkeon's words: {event} is pre-tool or post-tool.
  const [program, ...rest] = hook.argv;
  const withKind: [string, ...string[]] = [
    program,
    ...rest.map((arg) => arg.replaceAll("{event}", hook.kind)),
  ];
  return {
    label,
    points: [point],
    failClosed: false,
    matches: () => true,
    ownWords: true,
    async call(at, args, options): Promise<HookAnswer> {
      const result = await runHookProcess({
        command: expandArgv(withKind, at, args),
        stdin: commandStdin(at, args, context),
        cwd: context.workdir,
        timeoutMs: SESSION_HOOK_TIMEOUT_MS,
        signal: options.signal,
        sandbox: context.sandbox,
      });
      if (result.kind === "interrupted") return { kind: "interrupted" };
      const failed = failure(result);
      if (failed === null) return { kind: "answered", value: null };
      if (at === "beforeToolExecute") {
        return { kind: "answered", value: { allow: false, reason: `${label} ${failed}` } };
      }
      const [, toolResult] = args;
      const text = typeof toolResult === "object" && toolResult !== null &&
          "text" in toolResult && typeof toolResult.text === "string"
        ? toolResult.text
        : "";
      return { kind: "answered", value: { text: `${text}\n[${label} ${failed}]` } };
    },
  };
}
