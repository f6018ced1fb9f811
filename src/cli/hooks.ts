/**
 * `rienda hooks test NAME POINT --payload JSON`: one hook point on a
 * payload, printing as JSON what it returned after validation (`null` for
 * "no opinion"), with its notices on stderr (docs/cli.md). The listing is
 * `hooks_list.ts`'s.
 *
 * @module
 */

import { openExtensionWorkbench } from "../app/extension_workbench.ts";
import { HOOK_POINTS } from "../engine/hooks.ts";
import { stoppedBy } from "../engine/hook_stop.ts";
import { terminalSafe } from "../ui/terminal_text.ts";
import { callHook } from "../hooks/hook_call.ts";
import { failedClosed } from "../hooks/hook_chain.ts";
import { createScriptHook } from "../extensions/script_hook.ts";
import { isHookPoint, parseHookPayload } from "../extensions/hook_payloads.ts";
import { loadHookByName, withPolicy } from "../extensions/load_extensions.ts";
import type { Io } from "../ui/io.ts";
import { EXIT, UsageError } from "./exit.ts";
import { scriptEntry } from "./hooks_list.ts";
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
}

const COMMAND = "hooks test";

/** `rienda hooks test NAME POINT`: runs one point of one hook and prints what it returned. */
export async function hooksTest(
  io: Io,
  signal: AbortSignal,
  target: { readonly name: string; readonly point: string },
  flags: HooksTestFlags,
): Promise<number> {
  const { name, point } = target;
  if (!isHookPoint(point)) {
    throw new UsageError(
      `unknown hook point "${point}" (expected one of: ${HOOK_POINTS.join(", ")})`,
      COMMAND,
    );
  }
  checkOneStdinFlag({ "--payload": flags.payload, "--expect": flags.expect }, COMMAND);
  const payload = parseHookPayload(
    point,
    await readJsonFlag(io, "--payload", flags.payload, COMMAND),
  );
  if (!payload.ok) throw new UsageError(payload.message, COMMAND);
  const expected = flags.expect === undefined
    ? undefined
    : await readJsonFlag(io, "--expect", flags.expect, COMMAND);
  const callbacks = workbenchCallbacks(io);
  using workbench = await openExtensionWorkbench({
    env: io.env,
    cwd: io.cwd,
    secrets: io.secrets,
    config: flags.config,
    workdir: flags.workdir,
    autoApprove: flags.autoApprove,
    agent: flags.agent,
    signal,
    ...callbacks,
  });
  const loaded = await loadHookByName({ ...workbench.dirs, name });
  const { warnings } = loaded;
  const hook = withPolicy(
    loaded.hook,
    workbench.agent === undefined ? undefined : scriptEntry(workbench.agent, name),
  );
  for (const warning of warnings) callbacks.notice(warning);
  if (!hook.points.includes(point)) {
    throw new Error(
      `hook "${name}" does not implement ${point} (it implements: ${hook.points.join(", ")})`,
    );
  }
  const invoked = await callHook(
    createScriptHook(hook, { host: workbench.dirs.host, context: workbench.context }),
    point,
    payload.args,
    { signal, notice: workbench.context.notice },
  );
  if (signal.aborted || invoked.kind === "interrupted") {
    io.stderr.write("rienda: the hook was interrupted\n");
    return EXIT.interrupted;
  }
  if (invoked.kind === "failed") {
    // A run would refuse here: the test says so and fails.
    io.stderr.write(`rienda: ${failedClosed(name, invoked.problem)}\n`);
    return EXIT.failure;
  }
  if (invoked.kind === "stop") {
    // A run would end here, as `rienda run` says it (exit 3).
    io.stderr.write(`rienda: ${terminalSafe(stoppedBy({ hook: name, reason: invoked.reason }))}\n`);
    return EXIT.hookStop;
  }
  io.stdout.write(`${JSON.stringify(invoked.value)}\n`);
  if (expected === undefined) return EXIT.ok;
  const diff = expectDiff(expected, invoked.value);
  if (diff === null) return EXIT.ok;
  io.stderr.write(`rienda: the return differs from --expect:\n${diff}`);
  return EXIT.failure;
}
