/**
 * `rienda hooks test NAME POINT --payload JSON` (or `--entry N`, `--command
 * JSON`, `hooks_test_target.ts`): one point of one hook on a payload, built
 * and called as a run builds and calls it (`app/run_hooks.ts`,
 * `hooks/hook_call.ts`), printing as JSON what it returned after
 * validation (`null` for "no opinion"), with its notices on stderr
 * (docs/cli.md). The listing is `hooks_list.ts`'s.
 *
 * @module
 */

import { openExtensionWorkbench } from "../app/extension_workbench.ts";
import { entryHook, loadRunMatchers } from "../app/run_hooks.ts";
import { HOOK_POINTS, type HookPoint } from "../engine/hooks.ts";
import { stoppedBy } from "../engine/hook_stop.ts";
import { terminalSafe } from "../ui/terminal_text.ts";
import { callHook, type HookInvocation } from "../hooks/hook_call.ts";
import { failedClosed } from "../hooks/hook_chain.ts";
import type { RunnableHook } from "../hooks/runnable_hook.ts";
import { isHookPoint, parseHookPayload } from "../extensions/hook_payloads.ts";
import { loadHookByName } from "../extensions/load_extensions.ts";
import type { LoadedHook } from "../extensions/load_module.ts";
import type { Io } from "../ui/io.ts";
import { EXIT, UsageError } from "./exit.ts";
import { chosenEntry, hookChoice } from "./hooks_test_target.ts";
import {
  checkOneStdinFlag,
  expectDiff,
  readJsonFlag,
  workbenchCallbacks,
} from "./extension_output.ts";

/** The flags of `rienda hooks test`. */
export interface HooksTestFlags {
  /** `--payload JSON|@FILE|-`; `{}` when absent. */
  readonly payload: string | undefined;
  /** `--agent ID`. */
  readonly agent: string | undefined;
  /** `--expect JSON|@FILE|-`: the validated return it must give (`null`: no opinion). */
  readonly expect: string | undefined;
  /** `-C DIR`. */
  readonly workdir: string | undefined;
  /** `--config PATH`. */
  readonly config: string | undefined;
  /** `-y`. */
  readonly autoApprove: boolean;
  /** `--entry N`: entry N of `rienda hooks`. */
  readonly entry: string | undefined;
  /** `--command JSON|@FILE|-`: an argv list, or a hook entry object. */
  readonly command: string | undefined;
}

const COMMAND = "hooks test";

/** The name of the tool a call at a tool point is for; undefined at the other points. */
function toolOf(point: HookPoint, args: readonly unknown[]): string | undefined {
  if (point !== "beforeToolExecute" && point !== "afterToolExecute") return undefined;
  const [call] = args;
  return typeof call === "object" && call !== null && "name" in call &&
      typeof call.name === "string"
    ? call.name
    : undefined;
}

/**
 * `point`, when it is a hook point.
 *
 * @throws {UsageError} naming the points otherwise
 */
function knownPoint(point: string): HookPoint {
  if (isHookPoint(point)) return point;
  throw new UsageError(
    `unknown hook point "${point}" (expected one of: ${HOOK_POINTS.join(", ")})`,
    COMMAND,
  );
}

/** The point to run: the one given, else the hook's only one. */
function pointOf(given: string | undefined, hook: RunnableHook): HookPoint {
  const [only, ...others] = hook.points;
  if (given === undefined) {
    if (only !== undefined && others.length === 0) return only;
    throw new UsageError(
      `missing POINT: hook "${hook.label}" runs at ${hook.points.join(", ")}`,
      COMMAND,
    );
  }
  const point = knownPoint(given);
  if (hook.points.includes(point)) return point;
  throw new Error(
    `hook "${hook.label}" does not implement ${given} (it implements: ${hook.points.join(", ")})`,
  );
}

/**
 * `rienda hooks test NAME POINT`, `--entry N [POINT]`, `--command JSON
 * [POINT]`: runs one point of one hook as a run would and prints what it
 * returned.
 */
export async function hooksTest(
  io: Io,
  signal: AbortSignal,
  words: readonly (string | undefined)[],
  flags: HooksTestFlags,
): Promise<number> {
  const choice = hookChoice(words, flags);
  if (choice.point !== undefined) knownPoint(choice.point);
  checkOneStdinFlag(
    { "--payload": flags.payload, "--expect": flags.expect, "--command": flags.command },
    COMMAND,
  );
  const callbacks = workbenchCallbacks(io);
  using workbench = await openExtensionWorkbench({
    env: io.env,
    cwd: io.cwd,
    secrets: io.secrets,
    config: flags.config,
    workdir: flags.workdir,
    autoApprove: flags.autoApprove,
    agent: flags.agent,
    // An entry number is one of `rienda hooks`, whose agent is the default one without --agent.
    defaultAgent: choice.kind === "entry",
    signal,
    ...callbacks,
  });
  const sourced = await chosenEntry(io, choice, {
    ordered: workbench.hookOrder,
    agentId: workbench.agent?.id,
  });
  const { entry } = sourced;
  const scripts = new Map<string, LoadedHook>();
  if (entry.kind === "script") {
    const loaded = await loadHookByName({ ...workbench.dirs, name: entry.name });
    for (const warning of loaded.warnings) callbacks.notice(warning);
    scripts.set(entry.name, loaded.hook);
  }
  await loadRunMatchers([sourced]);
  const hook = entryHook(sourced, {
    scripts,
    host: workbench.dirs.host,
    context: workbench.context,
    // A command typed here is yours to try; an entry of a file runs as a run would run it.
    untrustedProject: choice.kind === "command" ? undefined : workbench.untrustedProject,
  });
  const point = pointOf(choice.point, hook);
  const payload = parseHookPayload(
    point,
    await readJsonFlag(io, "--payload", flags.payload, COMMAND),
  );
  if (!payload.ok) throw new UsageError(payload.message, COMMAND);
  const expected = flags.expect === undefined
    ? undefined
    : await readJsonFlag(io, "--expect", flags.expect, COMMAND);
  const tool = toolOf(point, payload.args);
  const invoked = tool !== undefined && !hook.matches(tool)
    ? notMatched(callbacks.notice, hook, point, tool, entry.matcher)
    : await callHook(hook, point, payload.args, { signal, notice: workbench.context.notice });
  if (signal.aborted || invoked.kind === "interrupted") {
    io.stderr.write("rienda: the hook was interrupted\n");
    return EXIT.interrupted;
  }
  if (invoked.kind === "failed") {
    // A run would refuse here: the test says so and fails.
    io.stderr.write(`rienda: ${failedClosed(hook.label, invoked.problem)}\n`);
    return EXIT.failure;
  }
  if (invoked.kind === "stop") {
    // A run would end here, as `rienda run` says it (exit 3).
    io.stderr.write(
      `rienda: ${terminalSafe(stoppedBy({ hook: hook.label, reason: invoked.reason }))}\n`,
    );
    return EXIT.hookStop;
  }
  io.stdout.write(`${JSON.stringify(invoked.value)}\n`);
  if (expected === undefined) return EXIT.ok;
  const diff = expectDiff(expected, invoked.value);
  if (diff === null) return EXIT.ok;
  io.stderr.write(`rienda: the return differs from --expect:\n${diff}`);
  return EXIT.failure;
}

/** A call the hook's matcher leaves out: a run does not call it, so no opinion. */
function notMatched(
  notice: (text: string) => void,
  hook: RunnableHook,
  point: HookPoint,
  tool: string,
  matcher: string | undefined,
): HookInvocation {
  notice(
    `hook "${hook.label}": ${point}: not called for tool "${tool}" (matcher ${
      JSON.stringify(matcher ?? "")
    })`,
  );
  return { kind: "returned", value: null };
}
