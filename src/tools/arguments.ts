/**
 * Checks a tool call's arguments against the tool's `parameters` JSON Schema
 * (ajv) before the tool runs, and words the refusal the model reads
 * (docs/cli.md: `the tool was not executed: <why>`).
 *
 * - Compiling is `tool_schema.ts`: cached per schema object, and bounded in
 *   time whatever the schema (linear-time patterns and `uniqueItems`).
 *
 * @module
 */

import type { ErrorObject } from "ajv";
import { compileToolSchema } from "./tool_schema.ts";
import { errorMessage } from "../base/unknown.ts";
import { formatFieldPath, parseJsonPointer, valueAt } from "../base/field_path.ts";

/** The outcome of {@link validateToolArguments}. */
export type ArgumentCheck =
  | { readonly ok: true; readonly args: Record<string, unknown> }
  | { readonly ok: false; readonly message: string };

/** What {@link validateToolArguments} needs from a tool. */
export interface ToolSchema {
  readonly name: string;
  readonly parameters: Readonly<Record<string, unknown>>;
}

const PREFIX = "the tool was not executed: ";
const MAX_LISTED_PROBLEMS = 5;
const MAX_FOUND_CHARS = 60;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function describeValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_FOUND_CHARS ? `${text.slice(0, MAX_FOUND_CHARS)}…` : text;
}

function stringParam(error: ErrorObject, name: string): string {
  const value: unknown = error.params[name];
  return typeof value === "string" ? value : String(value);
}

/** One ajv error in the words the model reads. */
function describeError(error: ErrorObject, args: Record<string, unknown>): string {
  const segments = parseJsonPointer(error.instancePath, args);
  const nested = (name: string) => JSON.stringify(formatFieldPath([...segments, name]));
  switch (error.keyword) {
    case "required":
      return `${nested(stringParam(error, "missingProperty"))} is required`;
    case "additionalProperties":
      return `unexpected property ${nested(stringParam(error, "additionalProperty"))}`;
  }
  const subject = segments.length === 0
    ? "the arguments"
    : JSON.stringify(formatFieldPath(segments));
  const found = describeValue(valueAt(args, segments));
  if (error.keyword === "enum" && Array.isArray(error.params.allowedValues)) {
    const allowed = error.params.allowedValues.map((value: unknown) => describeValue(value));
    return `${subject} must be one of ${allowed.join(", ")} (found ${found})`;
  }
  return `${subject} ${error.message ?? `fails "${error.keyword}"`} (found ${found})`;
}

function describeErrors(errors: readonly ErrorObject[], args: Record<string, unknown>): string {
  const problems = [...new Set(errors.map((error) => describeError(error, args)))];
  const listed = problems.slice(0, MAX_LISTED_PROBLEMS);
  const more = problems.length - listed.length;
  return listed.join("; ") + (more > 0 ? `; and ${more} more` : "");
}

/** Parses raw argument text the model sent, when it is not already a value. */
function parseRaw(raw: unknown): { value: unknown } | { message: string } {
  if (typeof raw !== "string") return { value: raw };
  try {
    return { value: JSON.parse(raw) };
  } catch (error) {
    const detail = errorMessage(error);
    return { message: `the arguments are not valid JSON: ${lowerFirst(detail)}` };
  }
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/**
 * Checks `raw` (an arguments value, or argument text that was not valid JSON)
 * against `tool.parameters`; a failure carries the message the model reads.
 *
 * @example
 * ```ts
 * import { validateToolArguments } from "./arguments.ts";
 * const tool = { name: "t", parameters: { type: "object", required: ["a"] } };
 * await validateToolArguments(tool, {}); // { ok: false, message: 'the tool was not executed: "a" is required' }
 * ```
 */
export async function validateToolArguments(
  tool: ToolSchema,
  raw: unknown,
): Promise<ArgumentCheck> {
  const parsed = parseRaw(raw);
  if ("message" in parsed) return { ok: false, message: PREFIX + parsed.message };
  if (!isPlainObject(parsed.value)) {
    return { ok: false, message: `${PREFIX}the arguments are not a JSON object` };
  }
  const schema = await compileToolSchema(tool.parameters);
  if ("problem" in schema) {
    const why = `the "parameters" schema of tool "${tool.name}" is invalid: ${schema.problem}`;
    return { ok: false, message: PREFIX + why };
  }
  const { validate } = schema;
  // The validator fills in defaults: the call's own arguments (stored, shown to hooks) stay as sent.
  const args = structuredClone(parsed.value);
  if (validate(args)) return { ok: true, args };
  return { ok: false, message: PREFIX + describeErrors(validate.errors ?? [], args) };
}
