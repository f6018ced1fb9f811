/**
 * The hook contract the engine calls at its seven points
 * (see `the hooks reference page`). The extension host implements it; the
 * engine never imports the host.
 *
 * - Every method returns what the whole chain came to ({@link Chained}):
 *   its value, already validated (the engine trusts it); `interrupted` when
 *   the run's interrupt stopped a hook before it returned, which is never
 *   "no opinion"; or `withheld` when a payload could not be handed to a hook
 *   (over the payload limits of `sandbox/payload_limits.ts`), so the hook never saw
 *   what it guards or rewrites; or `stopped` when a hook asked for the run
 *   to end (a Claude Code hook's `continue: false`): the engine ends it
 *   cleanly with reason `hook_stop` (`hook_stop.ts`).
 * - Other hook failures never reach the engine: implementations report them
 *   as notices and behave as "no opinion".
 *
 * @module
 */

/** `beforeRun` payload. */
export interface RunStartPayload {
  readonly sessionId: string;
  readonly agentId: string;
  readonly modelId: string;
}

/** `beforePrompt` payload: the user's message, before it is stored or sent. */
export interface PromptPayload {
  readonly text: string;
}

/**
 * The verdict of the `beforePrompt` chain: the (possibly rewritten) text and
 * the context hooks added for the model to read with it (empty: none), or a
 * refusal naming the hook.
 */
export type PromptGate =
  | { readonly allow: true; readonly text: string; readonly context: string }
  | { readonly allow: false; readonly reason: string };

/** Why a run ended: `hook_stop` when a hook asked for it to end (`hook_stop.ts`). */
export type EndReason = "end_turn" | "interrupted" | "error" | "hook_stop";

/**
 * Why a run ended, as `afterRun` hooks are told it: the hooks contract's
 * three reasons, a hook stop being a clean end (`end_turn`).
 */
export type AfterRunReason = Exclude<EndReason, "hook_stop">;

/** `beforeModelRequest` payload; `messages` is a read-only snapshot. */
export interface ModelRequestPayload {
  readonly system: string;
  readonly model: string;
  readonly messages: readonly { readonly role: "user" | "assistant"; readonly text: string }[];
}

/** `afterModelResponse` payload. */
export interface ModelResponsePayload {
  readonly text: string;
  readonly thinking: string;
  readonly toolCalls: readonly ToolCallPayload[];
}

/** A tool call as hooks see it. `arguments` is the raw text when it was not a JSON object. */
export interface ToolCallPayload {
  readonly id: string;
  readonly name: string;
  readonly arguments: unknown;
}

/** The verdict of the `beforeToolExecute` chain. */
export type ToolGate =
  | { readonly allow: true; readonly arguments: unknown }
  | { readonly allow: false; readonly reason: string };

/** A tool result as hooks see it. */
export interface ToolResultPayload {
  readonly text: string;
  readonly isError: boolean;
}

/** What a chain came to (see the module doc). */
export type Chained<T> =
  | { readonly kind: "done"; readonly value: T }
  | { readonly kind: "interrupted" }
  /** `reason` names the hook and the limit: `hook "x" could not be handed …`. */
  | { readonly kind: "withheld"; readonly reason: string }
  /** `hook` asked for the run to end, saying `reason` (may be empty). */
  | { readonly kind: "stopped"; readonly hook: string; readonly reason: string };

/** The seven hook points, each running the agent's whole chain. */
export interface HookRunner {
  /** Whether any hook implements `point` (lets the engine skip work). */
  has(point: HookPoint): boolean;
  beforeRun(payload: RunStartPayload, signal: AbortSignal): Promise<Chained<null>>;
  /** The prompt as it is stored and sent, with the context added to it, or its refusal. */
  beforePrompt(payload: PromptPayload, signal: AbortSignal): Promise<Chained<PromptGate>>;
  /**
   * Runs `afterRun` under `signal`; once `signal` is aborted (before the
   * chain or while it runs) the chain has {@link AFTER_RUN_GRACE_MS} more,
   * then the hook still running is stopped with a notice.
   */
  afterRun(
    payload: { readonly reason: AfterRunReason },
    signal: AbortSignal,
  ): Promise<Chained<null>>;
  /** The system prompt for this request only. */
  beforeModelRequest(payload: ModelRequestPayload, signal: AbortSignal): Promise<Chained<string>>;
  /** The (possibly rewritten) text and thinking. */
  afterModelResponse(
    payload: ModelResponsePayload,
    signal: AbortSignal,
  ): Promise<Chained<{ readonly text: string; readonly thinking: string }>>;
  /**
   * `complete` gives the arguments the tool would run with (its schema's
   * defaults filled in): each hook is handed what it returns for the
   * model's arguments and for those the hook before it returned.
   */
  beforeToolExecute(
    call: ToolCallPayload,
    signal: AbortSignal,
    complete?: (args: unknown) => Promise<unknown>,
  ): Promise<Chained<ToolGate>>;
  afterToolExecute(
    call: ToolCallPayload,
    result: ToolResultPayload,
    signal: AbortSignal,
  ): Promise<Chained<ToolResultPayload>>;
}

/**
 * What one call of one hook came to, as telemetry reports it: no opinion, an
 * explicit allow, a refusal, a rewrite, a failure reported as a notice, a
 * timeout reported as a notice (its `timeout_ms`, or the end of `afterRun`'s
 * grace), a failure of a fail-closed hook, a request to end the run, or a
 * call the run's interrupt stopped.
 */
export type HookOutcome =
  | "none"
  | "allow"
  | "deny"
  | "modify"
  | "error"
  | "timeout"
  | "failed_closed"
  | "stop"
  | "interrupted";

/** One call of one hook: the `hook` event of `--output stream-json` (docs/stream-json.md). */
export interface HookCallReport {
  readonly point: HookPoint;
  /** How messages name the hook: `guard`, `node hooks/policy.mjs`. */
  readonly hook: string;
  readonly durationMs: number;
  readonly outcome: HookOutcome;
  /** A refusal's reason, or what failed. */
  readonly reason?: string;
  /** The tool call, at the tool points. */
  readonly callId?: string;
}

/**
 * How long the `afterRun` chain may still run once the run's signal is
 * aborted: short, so an interrupted run is gone within a second of Ctrl-C
 * even when an `afterRun` hook hangs.
 */
export const AFTER_RUN_GRACE_MS = 500;

/** A finished chain's value. */
export function done<T>(value: T): Chained<T> {
  return { kind: "done", value };
}

/** The names of the seven points. */
export const HOOK_POINTS = [
  "beforeRun",
  "beforePrompt",
  "afterRun",
  "beforeModelRequest",
  "afterModelResponse",
  "beforeToolExecute",
  "afterToolExecute",
] as const;

/** One of {@link HOOK_POINTS}. */
export type HookPoint = typeof HOOK_POINTS[number];

/** A runner for an agent without hooks: every point is "no opinion". */
export const NO_HOOKS: HookRunner = {
  has: () => false,
  beforeRun: () => Promise.resolve(done(null)),
  beforePrompt: (payload) =>
    Promise.resolve(done({ allow: true, text: payload.text, context: "" })),
  afterRun: () => Promise.resolve(done(null)),
  beforeModelRequest: (payload) => Promise.resolve(done(payload.system)),
  afterModelResponse: (payload) =>
    Promise.resolve(done({ text: payload.text, thinking: payload.thinking })),
  beforeToolExecute: (call) => Promise.resolve(done({ allow: true, arguments: call.arguments })),
  afterToolExecute: (_call, result) => Promise.resolve(done(result)),
};
