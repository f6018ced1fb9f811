/**
 * A command hook (`- command: [node, hooks/policy.mjs, "{tool}"]`) as a
 * {@link RunnableHook} (docs/extending.md, "Command hooks"): what it is
 * handed and how its exit is read. The process is `hook_process.ts`'s.
 *
 * - Placeholders in the arguments: `{tool}` the tool name, `{event}` the
 *   point, `{path}` the call's `path` argument; each only when it holds
 *   letters, digits and `._/@+=,:-`, does not start with `-` and is at most
 *   {@link MAX_PLACEHOLDER_LENGTH} characters long, else `-`.
 *   The program is never expanded (the entry parser refuses one there).
 * - Standard input: one JSON object, `{"point", "session": {id, agentId,
 *   modelId, workdir}, "call": {id, name, arguments}}`, with `"result":
 *   {text, isError}` at `afterToolExecute` and `"payload"` at the other points.
 * - Exit 0 with nothing on stdout is "no opinion"; exit 0 with a JSON object
 *   is what a JavaScript hook returns, or Nous's `{"result": "allow" |
 *   "deny" | "modify", "reason", "changes"}`; exit 2 refuses with the first
 *   non-empty line of stderr (else of stdout). Anything else is a failure:
 *   another exit, a signal, the timeout, a program that cannot start, stdout
 *   that is not a JSON object or is over the capture limit.
 *
 * @module
 */

import type { HookPoint } from "../engine/hooks.ts";
import { type CommandHookEntry, entryLabel, toolMatcher } from "../config/hook_entries.ts";
import {
  firstLine,
  type HookProcessResult,
  MAX_COLLECTED_BYTES,
  processFailure,
  runHookProcess,
} from "./hook_process.ts";
import type { CommandSandbox } from "../sandbox/command_sandbox.ts";
import { projectFileOf, untrustedRefusal } from "./project_files.ts";
import type { HookAnswer, RunnableHook } from "./runnable_hook.ts";

/** The run a command hook serves, as its standard input names it. */
export interface CommandHookContext {
  readonly workdir: string;
  readonly session: { readonly id: string; readonly agentId: string; readonly modelId: string };
  /** What confines the hook's process, as it confines `shell` (docs/sandbox.md). */
  readonly sandbox?: CommandSandbox | undefined;
  /**
   * The root of the workspace's project when you have not trusted it: a hook
   * that would run one of the workspace's files (`project_files.ts`) does not
   * run, and fails closed.
   */
  readonly untrustedProject?: string | undefined;
}

/** The points at which a hook may refuse. */
const REFUSING_POINTS: readonly HookPoint[] = ["beforePrompt", "beforeToolExecute"];

/** What a placeholder may be replaced with as it is; anything else becomes `-`. */
const SAFE_WORD_REGEXP = /^(?!-)[\p{L}\p{N}._/@+=,:-]+$/u;
const PLACEHOLDER_REGEXP = /\{(tool|event|path)\}/g;
/**
 * The longest value a placeholder takes as it is: Linux's longest path. A
 * longer one (`./` 100,000 times, a path the tool still writes) could pass
 * the system's limit on one argument, and the hook would not start.
 */
export const MAX_PLACEHOLDER_LENGTH = 4096;

function safeWord(value: unknown): string {
  return typeof value === "string" && value.length <= MAX_PLACEHOLDER_LENGTH &&
      SAFE_WORD_REGEXP.test(value)
    ? value
    : "-";
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The call handed at a tool point, or null at the others. */
function callOf(
  point: HookPoint,
  args: readonly unknown[],
): Readonly<Record<string, unknown>> | null {
  if (point !== "beforeToolExecute" && point !== "afterToolExecute") return null;
  const [call] = args;
  return isObject(call) ? call : null;
}

/**
 * `argv` with the placeholders of its arguments replaced for `point` and `args`.
 *
 * @example
 * ```ts
 * import { expandArgv } from "./command_hook.ts";
 * expandArgv(["check", "{tool}", "{path}"], "beforeToolExecute", [
 *   { id: "c1", name: "write", arguments: { path: "--force" } },
 * ]);
 * // ["check", "write", "-"]
 * ```
 */
export function expandArgv(
  argv: readonly [string, ...string[]],
  point: HookPoint,
  args: readonly unknown[],
): [string, ...string[]] {
  const call = callOf(point, args);
  const callArgs = call?.arguments;
  const values: Readonly<Record<string, string>> = {
    tool: safeWord(call?.name),
    event: point,
    path: safeWord(isObject(callArgs) ? callArgs.path : undefined),
  };
  // The program stays as written: the model's call never chooses what runs.
  const [program, ...rest] = argv;
  const expand = (element: string) =>
    element.replace(PLACEHOLDER_REGEXP, (_match, name: string) => values[name] ?? "-");
  return [program, ...rest.map(expand)];
}

/** The JSON a command hook reads on its standard input (see the module doc). */
export function commandStdin(
  point: HookPoint,
  args: readonly unknown[],
  context: CommandHookContext,
): string {
  const session = { ...context.session, workdir: context.workdir };
  const call = callOf(point, args);
  if (call === null) return JSON.stringify({ point, session, payload: args[0] ?? null });
  const { id, name, arguments: callArguments } = call;
  return JSON.stringify({
    point,
    session,
    call: { id, name, arguments: callArguments },
    ...(point === "afterToolExecute" ? { result: args[1] ?? null } : {}),
  });
}

/** The answer of a refusal at `point`: a failure where nothing can be refused. */
function refusal(point: HookPoint, reason: string, how: string): HookAnswer {
  if (REFUSING_POINTS.includes(point)) {
    return { kind: "answered", value: reason === "" ? { allow: false } : { allow: false, reason } };
  }
  return {
    kind: "failed",
    problem: `${how}, but ${point} cannot refuse anything${reason === "" ? "" : `: ${reason}`}`,
  };
}

/** Nous's `{"result", "reason", "changes"}` as the point's fields. */
function nousAnswer(point: HookPoint, value: Readonly<Record<string, unknown>>): HookAnswer {
  const reason = typeof value.reason === "string" ? value.reason : "";
  switch (value.result) {
    case "allow":
      return { kind: "answered", value: { allow: true } };
    case "deny":
      return refusal(point, reason, `answered "deny"`);
    case "modify":
      if (isObject(value.changes)) return { kind: "answered", value: { ...value.changes } };
      return {
        kind: "failed",
        problem: `answered "modify" without "changes" (an object of the fields to change)`,
      };
    default:
      return {
        kind: "failed",
        problem: `"result" must be "allow", "deny" or "modify" (found ${
          JSON.stringify(value.result)
        })`,
      };
  }
}

/** The answer of stdout after exit 0. */
function stdoutAnswer(point: HookPoint, stdout: string, truncated: boolean): HookAnswer {
  if (truncated) {
    return {
      kind: "failed",
      problem: `wrote more than ${MAX_COLLECTED_BYTES / (1024 * 1024)} MiB on stdout`,
    };
  }
  if (stdout.trim() === "") return { kind: "answered", value: null };
  let value: unknown;
  try {
    value = JSON.parse(stdout);
  } catch {
    return {
      kind: "failed",
      problem: `stdout is not JSON (a JSON object, or nothing): ${firstLine(stdout).slice(0, 200)}`,
    };
  }
  if (value === null) return { kind: "answered", value: null };
  if (!isObject(value)) {
    return {
      kind: "failed",
      problem: `stdout must be a JSON object or nothing (found ${
        JSON.stringify(value).slice(0, 80)
      })`,
    };
  }
  return typeof value.result === "string" ? nousAnswer(point, value) : { kind: "answered", value };
}

/** What an ended hook program came to at `point` (see the module doc). */
export function readCommandResult(
  point: HookPoint,
  result: HookProcessResult,
  timeoutMs: number,
): HookAnswer {
  if (result.kind !== "exited") return processFailure(result, timeoutMs);
  if (result.code === 0) return stdoutAnswer(point, result.stdout, result.stdoutTruncated);
  const line = firstLine(result.stderr) || firstLine(result.stdout);
  if (result.code === 2) return refusal(point, line, "exited 2 (a refusal)");
  return { kind: "failed", problem: `exited ${result.code}${line === "" ? "" : `: ${line}`}` };
}

/** The command hook of `entry`, run for `context`. */
export function createCommandHook(
  entry: CommandHookEntry,
  context: CommandHookContext,
): RunnableHook {
  return {
    label: entryLabel(entry),
    points: entry.points,
    failClosed: entry.failClosed ?? false,
    matches: toolMatcher(entry),
    async call(point, args, options) {
      const command = expandArgv(entry.argv, point, args);
      const refused = await untrustedRefusal(
        context.untrustedProject,
        () => projectFileOf(entry.argv, command, context.workdir),
      );
      if (refused !== null) return refused;
      const result = await runHookProcess({
        command,
        stdin: commandStdin(point, args, context),
        cwd: context.workdir,
        timeoutMs: entry.timeoutMs,
        signal: options.signal,
        sandbox: context.sandbox,
      });
      return readCommandResult(point, result, entry.timeoutMs);
    },
  };
}
