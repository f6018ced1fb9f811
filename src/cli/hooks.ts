/**
 * `rienda hooks`: the user hooks with the points they implement, and the
 * diagnostics of broken ones; `rienda hooks test NAME POINT --payload JSON`:
 * one hook point on a payload, printing as JSON what it returned after
 * validation (`null` for "no opinion"), with its notices on stderr
 * (docs/cli.md).
 *
 * ```
 * audit  afterRun
 *   capabilities: full access
 * guard  afterRun, beforeToolExecute  fail-closed; agent careful: timeout 5000 ms
 *   capabilities: file read: none; file write: none; http: none; exec: git; env: none
 * ```
 *
 * The third column is the policy: `fail-closed` when the module says so,
 * then what each agent's object entry for the hook makes of it.
 *
 * @module
 */

import type { AgentDefinition } from "../agents/agent_file.ts";
import type { ScriptHookEntry } from "../config/hook_entries.ts";
import { agentSources } from "../agents/agent_sources.ts";
import { listAgents } from "../agents/catalog.ts";
import { loadHomeExtensions, openExtensionWorkbench } from "../app/extension_workbench.ts";
import { resolvePaths } from "../config/paths.ts";
import { HOOK_POINTS } from "../engine/hooks.ts";
import { callHook } from "../hooks/hook_call.ts";
import { failedClosed } from "../hooks/hook_chain.ts";
import { createScriptHook } from "../extensions/script_hook.ts";
import { isHookPoint, parseHookPayload } from "../extensions/hook_payloads.ts";
import { loadHookByName, withPolicy } from "../extensions/load_extensions.ts";
import type { LoadedHook } from "../extensions/load_module.ts";
import type { Io } from "../ui/io.ts";
import { formatColumns } from "./columns.ts";
import { EXIT, UsageError } from "./exit.ts";
import {
  capabilitiesLine,
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

/** The entry of JavaScript hook `name` in `agent`'s `hooks:`, if it lists it. */
function scriptEntry(agent: AgentDefinition, name: string): ScriptHookEntry | undefined {
  return agent.hookEntries.find((entry): entry is ScriptHookEntry =>
    entry.kind === "script" && entry.name === name
  );
}

/** The policy column of `hook`: the module's, then each agent's override. */
function policyText(hook: LoadedHook, agents: readonly AgentDefinition[]): string {
  const parts = hook.failClosed ? ["fail-closed"] : [];
  for (const agent of agents) {
    const policy = scriptEntry(agent, hook.name);
    if (policy === undefined) continue;
    const failClosed = policy.failClosed ?? hook.failClosed;
    const settings = [
      ...(failClosed === hook.failClosed ? [] : [failClosed ? "fail-closed" : "fail-open"]),
      ...(policy.timeoutMs === undefined ? [] : [`timeout ${policy.timeoutMs} ms`]),
    ];
    if (settings.length > 0) parts.push(`agent ${agent.id}: ${settings.join(", ")}`);
  }
  return parts.join("; ");
}

/** `rienda hooks`: one line per hook with its points and policy; diagnostics on stderr (exit 1 if broken). */
export async function hooksList(io: Io, signal: AbortSignal): Promise<number> {
  const { catalog, dir, policy } = await loadHomeExtensions(
    { env: io.env, cwd: io.cwd, signal },
    "hook",
  );
  const { agents } = await listAgents(
    await agentSources(resolvePaths(io.env, { cwd: io.cwd }), io.cwd),
  );
  const rows = formatColumns(catalog.hooks.map((hook) => {
    const column = policyText(hook, agents);
    return [hook.name, hook.points.join(", "), ...(column === "" ? [] : [column])];
  }));
  rows.split("\n").slice(0, -1).forEach((row, index) => {
    const hook = catalog.hooks[index];
    io.stdout.write(`${row}\n${hook === undefined ? "" : capabilitiesLine(hook, policy)}`);
  });
  for (const diagnostic of catalog.diagnostics) io.stderr.write(`${diagnostic}\n`);
  if (catalog.hooks.length === 0 && catalog.diagnostics.length === 0) {
    io.stderr.write(`no hooks in ${dir} (a hook is ${dir}/<name>/index.js)\n`);
  }
  return catalog.problems.length > 0 ? EXIT.failure : EXIT.ok;
}

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
  io.stdout.write(`${JSON.stringify(invoked.value)}\n`);
  if (expected === undefined) return EXIT.ok;
  const diff = expectDiff(expected, invoked.value);
  if (diff === null) return EXIT.ok;
  io.stderr.write(`rienda: the return differs from --expect:\n${diff}`);
  return EXIT.failure;
}
