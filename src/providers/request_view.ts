/**
 * What a wire request body says, read the same way for the three protocols:
 * the model id, the names of the tools offered and the conversation items
 * (the system prompt apart). A replayed run compares these with the request
 * its cassette recorded (docs/testing.md, "Mismatches").
 *
 * - chat completions: `model`, `tools[].function.name`, `messages` without
 *   the `system` message;
 * - Responses: `model`, `tools[].name`, the `input` items;
 * - Anthropic: `model`, `tools[].name`, `messages` (`system` is its own field).
 *
 * @module
 */

import type { WireProtocol } from "./client.ts";
import { arrayAt, isRecord, recordAt, stringAt } from "./wire_json.ts";

/** One item of the conversation a request sends. */
export interface ConversationItem {
  /** How a message names the item: its role (`user`, `tool`) or, for a typed item, its type. */
  readonly label: string;
  readonly value: unknown;
}

/** The parts of a request body a replay compares. */
export interface RequestView {
  /** The model id on the wire, undefined when the body names none. */
  readonly model: string | undefined;
  /** The names of the tools offered, in the order sent. */
  readonly tools: readonly string[];
  /** The conversation sent, in order, without the system prompt. */
  readonly conversation: readonly ConversationItem[];
}

/** Reads `body` as a request of `protocol`; parts it lacks read as empty. */
export function requestView(protocol: WireProtocol, body: unknown): RequestView {
  const model = stringAt(body, "model");
  switch (protocol) {
    case "openai_chat_completions":
      return {
        model,
        tools: names(arrayAt(body, "tools").map((tool) => recordAt(tool, "function"))),
        conversation: items(arrayAt(body, "messages"))
          .filter((item) => item.label !== "system" && item.label !== "developer"),
      };
    case "openai_responses":
      return {
        model,
        tools: names(arrayAt(body, "tools")),
        conversation: items(arrayAt(body, "input")),
      };
    case "anthropic":
      return {
        model,
        tools: names(arrayAt(body, "tools")),
        conversation: items(arrayAt(body, "messages")),
      };
    default: {
      const never: never = protocol;
      throw new TypeError(`unknown protocol ${String(never)}`);
    }
  }
}

function names(tools: readonly unknown[]): string[] {
  return tools.map((tool) => stringAt(tool, "name") ?? "?");
}

function items(values: readonly unknown[]): ConversationItem[] {
  return values.map((value) => ({
    label: isRecord(value) ? stringAt(value, "role") ?? stringAt(value, "type") ?? "item" : "item",
    value,
  }));
}
