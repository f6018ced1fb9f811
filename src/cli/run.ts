/**
 * `rienda run`: one non-interactive run of an agent, rendered in the chosen
 * `--output` format.
 *
 * @module
 */

import { prepareRun } from "../app/prepare_run.ts";
import { ThinkingLevelError } from "../app/resolve_model.ts";
import { runAgent } from "../engine/run.ts";
import type { RunEvent } from "../engine/events.ts";
import type { HookRunner } from "../engine/hooks.ts";
import { stoppedBy } from "../engine/hook_stop.ts";
import type { Io } from "../ui/io.ts";
import { createJsonRenderer } from "../ui/json.ts";
import { createStreamJsonRenderer } from "../ui/stream_json.ts";
import { createTextRenderer, type Renderer } from "../ui/text.ts";
import { createStyle, useColor, useSpinner } from "../ui/terminal.ts";
import { createTerminalConfirm } from "../ui/terminal_confirm.ts";
import { terminalSafe } from "../ui/terminal_text.ts";
import { EXIT, INTERRUPTED_LINE, UsageError } from "./exit.ts";
import type { SandboxMode } from "../sandbox/sandbox_setting.ts";
import { readPrompt } from "./prompt_input.ts";
import { openCassette } from "../app/cassette.ts";

/** The parsed flags of `rienda run`. */
export interface RunFlags {
  readonly agent: string | undefined;
  readonly agentFile: string | undefined;
  readonly prompt: string | undefined;
  readonly model: string | undefined;
  readonly workdir: string | undefined;
  readonly config: string | undefined;
  readonly autoApprove: boolean;
  readonly output: "text" | "json" | "stream-json";
  readonly maxTurns: number | undefined;
  readonly noSession: boolean;
  /** `-s ID`: the session to continue. */
  readonly session?: string | undefined;
  /** `-c`: continue the most recent session. */
  readonly continueLatest?: boolean;
  /** `--thinking LEVEL`; absent means off. */
  readonly thinking?: string | undefined;
  /** `--sandbox MODE` (docs/sandbox.md). */
  readonly sandbox?: SandboxMode | undefined;
  /** `--record FILE`: the cassette to write. */
  readonly record?: string | undefined;
  /** `--replay FILE`: the cassette to answer from. */
  readonly replay?: string | undefined;
  /** `--replay-strict`. */
  readonly replayStrict?: boolean;
}

/** Watches a run from outside (`rienda test`): its events and the calls hooks refused. */
export interface RunObserver {
  event(event: RunEvent): void;
  /** A call that a `beforeToolExecute` hook refused (or a failing hook withheld), by tool name. */
  refused(name: string): void;
}

/** Runs the agent and resolves to the exit code. */
export async function runCommand(
  io: Io,
  signal: AbortSignal,
  words: readonly string[],
  flags: RunFlags,
  observer?: RunObserver,
): Promise<number> {
  const agent = flags.agent !== undefined
    ? { kind: "id" as const, id: flags.agent }
    : flags.agentFile !== undefined
    ? { kind: "file" as const, path: flags.agentFile }
    : undefined;
  const continueSession = flags.session !== undefined
    ? { kind: "id" as const, id: flags.session }
    : flags.continueLatest === true
    ? { kind: "latest" as const }
    : undefined;
  const prompt = await readPrompt(io, flags.prompt, words, signal);
  const cassette = await openCassette(io.cwd, flags);
  const renderer = createRenderer(io, flags);
  // A person at the terminal answers ctx.confirm (docs/cli.md); otherwise it is -y or no.
  const confirm = io.stdinIsTerminal && io.stderr.isTerminal && !flags.autoApprove
    ? createTerminalConfirm(io.stderr, createStyle(useColor(io.stderr, io.env)), renderer.finish)
    : undefined;
  await using plan = await prepareRun({
    agent,
    continueSession,
    model: flags.model,
    workdir: flags.workdir,
    config: flags.config,
    autoApprove: flags.autoApprove,
    maxTurns: flags.maxTurns,
    noSession: flags.noSession,
    thinking: flags.thinking,
    sandbox: flags.sandbox,
    title: prompt.title,
    env: io.env,
    cwd: io.cwd,
    secrets: io.secrets,
    // Hook notices are events of the run, printed where the renderer prints notices.
    notice: (text) => renderer.sink({ type: "notice", text }),
    // Every hook call is an event: stream-json prints it, json counts it.
    hookReport: (report) => renderer.sink({ type: "hook", ...report }),
    confirm,
    signal,
    cassette,
    // Subagents' events go where the run's go, each tagged with its agent call.
    subagentEvents: renderer.sink,
  }).catch((error: unknown) => {
    // A level the model does not accept is a usage error (exit 2).
    throw error instanceof ThinkingLevelError ? new UsageError(error.message, "run") : error;
  });
  const outcome = await runAgent({
    ...plan.options,
    ...(observer === undefined ? {} : { hooks: observedHooks(plan.options.hooks, observer) }),
    emit: observer === undefined ? renderer.sink : (event) => {
      observer.event(event);
      renderer.sink(event);
    },
    signal,
  }, prompt.text);
  renderer.finish();
  switch (outcome.reason) {
    case "end_turn":
      return EXIT.ok;
    case "interrupted":
      io.stderr.write(INTERRUPTED_LINE);
      return EXIT.interrupted;
    case "hook_stop":
      // A deliberate end, not a failure: its own exit code, the hook's words on one line.
      io.stderr.write(`rienda: ${terminalSafe(stoppedBy(outcome.stop))}\n`);
      return EXIT.hookStop;
    case "error": {
      const error = outcome.error ?? "the run failed";
      // The session says it ended here, so a listing tells it from one that was answered;
      // a refused prompt stored nothing, and leaves nothing.
      if (outcome.promptRefused !== true) await plan.recordFailure(error);
      io.stderr.write(`rienda: ${terminalSafe(error)}\n`);
      return EXIT.failure;
    }
  }
}

/** `hooks`, with every refused call reported to the observer. */
function observedHooks(hooks: HookRunner, observer: RunObserver): HookRunner {
  return {
    has: (point) => hooks.has(point),
    beforeRun: (payload, signal) => hooks.beforeRun(payload, signal),
    beforePrompt: (payload, signal) => hooks.beforePrompt(payload, signal),
    afterRun: (payload, signal) => hooks.afterRun(payload, signal),
    beforeModelRequest: (payload, signal) => hooks.beforeModelRequest(payload, signal),
    afterModelResponse: (payload, signal) => hooks.afterModelResponse(payload, signal),
    async beforeToolExecute(call, signal, complete) {
      const gate = await hooks.beforeToolExecute(call, signal, complete);
      if (gate.kind === "withheld" || (gate.kind === "done" && !gate.value.allow)) {
        observer.refused(call.name);
      }
      return gate;
    },
    afterToolExecute: (call, result, signal) => hooks.afterToolExecute(call, result, signal),
  };
}

function createRenderer(io: Io, flags: RunFlags): Renderer {
  switch (flags.output) {
    case "text":
      return createTextRenderer({
        stdout: io.stdout,
        stderr: io.stderr,
        style: createStyle(useColor(io.stderr, io.env)),
        color: useColor(io.stderr, io.env),
        showSession: !flags.noSession,
        spinner: useSpinner(io.stderr, io.env),
      });
    case "json":
      return createJsonRenderer(io.stdout);
    case "stream-json":
      return createStreamJsonRenderer(io.stdout);
  }
}
