/**
 * Checks a payload given on the command line (`rienda hooks test NAME POINT
 * --payload JSON`) against the point's payload shape, and turns it into the
 * hook's arguments. Optional parts get the values a run would give.
 *
 * | point | payload |
 * | --- | --- |
 * | `beforeRun` | `{ sessionId, agentId, modelId }` |
 * | `beforePrompt` | `{ text }` |
 * | `afterRun` | `{ reason }`: `end_turn`, `interrupted` or `error` |
 * | `beforeModelRequest` | `{ system, model, messages?: [{ role, text }] }` |
 * | `afterModelResponse` | `{ text, thinking?, toolCalls?: [{ id, name, arguments }] }` |
 * | `beforeToolExecute` | `{ id?, name, arguments }` |
 * | `afterToolExecute` | `{ call: { id?, name, arguments }, result: { text, isError? } }` |
 *
 * A value over the payload limits (`sandbox/payload_limits.ts`), which a run would
 * never hand to a hook, is refused like a field of the wrong type.
 *
 * @module
 */

import { HOOK_POINTS, type HookPoint } from "../engine/hooks.ts";
import { payloadProblem } from "../sandbox/payload_limits.ts";

/** The outcome of {@link parseHookPayload}. */
export type HookPayloadCheck =
  | { readonly ok: true; readonly args: readonly unknown[] }
  | { readonly ok: false; readonly message: string };

class PayloadError extends Error {}

function record(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new PayloadError(`${where} must be an object`);
  }
  return { ...value };
}

function string(value: unknown, where: string, fallback?: string): string {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== "string") throw new PayloadError(`${where} must be a string`);
  return value;
}

function list(value: unknown, where: string): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new PayloadError(`${where} must be an array`);
  return value;
}

/** A tool call at `where` (a field path; `null` for the payload itself). */
function toolCall(value: unknown, where: string | null) {
  const call = record(value, where ?? "the payload");
  const field = (name: string) => where === null ? name : `${where}.${name}`;
  return {
    id: string(call.id, field("id"), "call_test"),
    name: string(call.name, field("name")),
    arguments: call.arguments ?? {},
  };
}

function argsFor(point: HookPoint, payload: Record<string, unknown>): unknown[] {
  switch (point) {
    case "beforeRun":
      return [{
        sessionId: string(payload.sessionId, "sessionId", "test"),
        agentId: string(payload.agentId, "agentId", "test"),
        modelId: string(payload.modelId, "modelId", "test/test"),
      }];
    case "beforePrompt":
      return [{ text: string(payload.text, "text") }];
    case "afterRun": {
      const reason = string(payload.reason, "reason", "end_turn");
      if (!["end_turn", "interrupted", "error"].includes(reason)) {
        throw new PayloadError(`reason must be one of end_turn, interrupted, error`);
      }
      return [{ reason }];
    }
    case "beforeModelRequest":
      return [{
        system: string(payload.system, "system", ""),
        model: string(payload.model, "model", "test/test"),
        messages: list(payload.messages, "messages").map((item, i) => {
          const message = record(item, `messages[${i}]`);
          const role = string(message.role, `messages[${i}].role`);
          if (role !== "user" && role !== "assistant") {
            throw new PayloadError(`messages[${i}].role must be "user" or "assistant"`);
          }
          return { role, text: string(message.text, `messages[${i}].text`) };
        }),
      }];
    case "afterModelResponse":
      return [{
        text: string(payload.text, "text"),
        thinking: string(payload.thinking, "thinking", ""),
        toolCalls: list(payload.toolCalls, "toolCalls").map((item, i) =>
          toolCall(item, `toolCalls[${i}]`)
        ),
      }];
    case "beforeToolExecute":
      return [toolCall(payload, null)];
    case "afterToolExecute": {
      const result = record(payload.result, "result");
      const isError = result.isError ?? false;
      if (typeof isError !== "boolean") throw new PayloadError("result.isError must be a boolean");
      return [toolCall(payload.call, "call"), {
        text: string(result.text, "result.text"),
        isError,
      }];
    }
    default: {
      const never: never = point;
      throw new Error(`unexpected point ${String(never)}`);
    }
  }
}

/** Whether `name` is one of the seven points. */
export function isHookPoint(name: string): name is HookPoint {
  const points: readonly string[] = HOOK_POINTS;
  return points.includes(name);
}

/** Fails on the first field of `value` (one level of objects and lists in) over the limits. */
function checkLimits(value: unknown, where: string): void {
  if (typeof value !== "object" || value === null) return;
  for (const [key, field] of Object.entries(value)) {
    const at = Array.isArray(value) ? `${where}[${key}]` : where === "" ? key : `${where}.${key}`;
    if (typeof field === "object" && field !== null && key !== "arguments") {
      checkLimits(field, at);
      continue;
    }
    const problem = payloadProblem(field);
    if (problem !== null) throw new PayloadError(`${at} is ${problem}`);
  }
}

/** Checks `payload` (decoded JSON) for `point`; the message says what is wrong. */
export function parseHookPayload(point: HookPoint, payload: unknown): HookPayloadCheck {
  try {
    const args = argsFor(point, record(payload, "the payload"));
    for (const arg of args) checkLimits(arg, "");
    return { ok: true, args };
  } catch (error) {
    if (error instanceof PayloadError) {
      return { ok: false, message: `invalid ${point} payload: ${error.message}` };
    }
    throw error;
  }
}
