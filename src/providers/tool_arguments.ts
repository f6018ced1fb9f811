/**
 * The argument text of a streamed tool call → the `arguments` object of a
 * `tool_call` block (messages.ts: `arguments` is always an object).
 *
 * @module
 */

import { isRecord } from "./wire_json.ts";

/** The `arguments` and, when the text was not a JSON object, `rawArguments` of a call. */
export type ParsedToolArguments =
  | { readonly arguments: Readonly<Record<string, unknown>> }
  | { readonly arguments: Readonly<Record<string, unknown>>; readonly rawArguments: string };

/**
 * Parses a tool call's argument text: blank text is `{}`, a JSON object is
 * itself, anything else is `{}` with the text kept as `rawArguments`.
 *
 * @example
 * ```ts
 * parseToolArguments('{"command":"ls"}'); // { arguments: { command: "ls" } }
 * parseToolArguments("ls -la");           // { arguments: {}, rawArguments: "ls -la" }
 * ```
 */
export function parseToolArguments(text: string): ParsedToolArguments {
  if (text.trim() === "") return { arguments: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { arguments: {}, rawArguments: text };
  }
  return isRecord(value) ? { arguments: value } : { arguments: {}, rawArguments: text };
}
