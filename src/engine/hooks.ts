/**
 * The hook contract the engine calls at its six points
 * (see `the hooks reference page`). The extension host implements it; the
 * engine never imports the host.
 *
 * - Every method returns the value after the whole chain ran, already
 *   validated: the engine trusts it.
 * - Hook failures never reach the engine: implementations report them as
 *   notices and behave as "no opinion".
 *
 * @module
 */

/** `beforeRun` payload. */
export interface RunStartPayload {
  readonly sessionId: string;
  readonly agentId: string;
  readonly modelId: string;
}

/** Why a run ended. */
export type EndReason = "end_turn" | "interrupted" | "error";

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

/** The six hook points, each running the agent's whole chain. */
export interface HookRunner {
  /** Whether any hook implements `point` (lets the engine skip work). */
  has(point: HookPoint): boolean;
  beforeRun(payload: RunStartPayload, signal: AbortSignal): Promise<void>;
  afterRun(payload: { readonly reason: EndReason }, signal: AbortSignal): Promise<void>;
  /** Returns the system prompt for this request only. */
  beforeModelRequest(payload: ModelRequestPayload, signal: AbortSignal): Promise<string>;
  /** Returns the (possibly rewritten) text and thinking. */
  afterModelResponse(
    payload: ModelResponsePayload,
    signal: AbortSignal,
  ): Promise<{ readonly text: string; readonly thinking: string }>;
  beforeToolExecute(call: ToolCallPayload, signal: AbortSignal): Promise<ToolGate>;
  afterToolExecute(
    call: ToolCallPayload,
    result: ToolResultPayload,
    signal: AbortSignal,
  ): Promise<ToolResultPayload>;
}

/** The names of the six points. */
export const HOOK_POINTS = [
  "beforeRun",
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
  beforeRun: () => Promise.resolve(),
  afterRun: () => Promise.resolve(),
  beforeModelRequest: (payload) => Promise.resolve(payload.system),
  afterModelResponse: (payload) =>
    Promise.resolve({ text: payload.text, thinking: payload.thinking }),
  beforeToolExecute: (call) => Promise.resolve({ allow: true, arguments: call.arguments }),
  afterToolExecute: (_call, result) => Promise.resolve(result),
};
