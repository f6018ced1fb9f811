/**
 * Compiles a tool's `parameters` JSON Schema (ajv) into a validator whose
 * run time is bounded by the size of the arguments, so that validating on
 * the main thread can never keep an interrupt waiting (docs/extensions.md,
 * "Argument validation"):
 *
 * - `pattern` and `patternProperties` run on RE2 (`re2js`, linear time)
 *   instead of JavaScript's backtracking engine: `^(a+)+$` against 41
 *   characters took minutes. ECMAScript syntax is translated; what RE2
 *   cannot do in linear time (lookaround, backreferences) makes the schema
 *   invalid, reported when the tool is listed.
 * - `uniqueItems` compares canonical JSON texts in a set instead of ajv's
 *   pairwise comparison (quadratic for items of no declared scalar type).
 *
 * Each schema object is compiled once and cached by identity; the built-in
 * tools' come compiled ahead of time (`builtin_validators.js`). ajv is
 * imported on first use (~40 ms a run without tool calls never pays), RE2
 * only for a schema that has patterns. ajv runs non-strict (user schemas may
 * carry extra keywords and formats) and silent (it never writes to the console),
 * and fills in the `default` of absent properties (`useDefaults`), so a
 * validator changes the object it checks.
 *
 * @module
 */

import type { Ajv, ErrorObject, Options, ValidateFunction } from "ajv";
import { compileLinear, loadLinearRegExp } from "../base/linear_regexp.ts";
import { errorMessage } from "../base/unknown.ts";

type RegExpEngine = NonNullable<NonNullable<Options["code"]>["regExp"]>;

let ajvInstance: Promise<Ajv> | undefined;

/** RE2 for ajv's `pattern` and `patternProperties`; loaded before any schema that needs it is compiled. */
const linearRegExp: RegExpEngine = Object.assign((pattern: string) => {
  const compiled = compileLinear(pattern);
  if ("problem" in compiled) {
    throw new Error(
      `pattern ${
        JSON.stringify(pattern)
      } cannot run in linear time (no lookaround or backreferences): ${compiled.problem}`,
    );
  }
  // ajv keys its compiled patterns by `toString()`: it must tell patterns apart.
  return { test: (text: string) => compiled.test(text), toString: () => `re2:${pattern}` };
}, { code: "re2js" });

/** A JSON text with object keys sorted: equal texts for deeply equal JSON values. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${
      entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")
    }}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** ajv's `uniqueItems`, in linear time: the first repeated item is reported as ajv would. */
function uniqueItems(schema: unknown, data: unknown): boolean {
  if (schema !== true || !Array.isArray(data)) return true;
  const seen = new Map<string, number>();
  for (let i = 0; i < data.length; i++) {
    const key = canonicalJson(data[i]);
    const j = seen.get(key);
    if (j !== undefined) {
      const error: Partial<ErrorObject> = {
        keyword: "uniqueItems",
        message: `must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
        params: { i, j },
      };
      uniqueItems.errors = [error];
      return false;
    }
    seen.set(key, i);
  }
  return true;
}
uniqueItems.errors = [] as Partial<ErrorObject>[];

function loadAjv(): Promise<Ajv> {
  ajvInstance ??= import("ajv").then((module) => {
    // A bundle hands over ajv's CommonJS exports as the default export only.
    const Ajv = module.Ajv ?? module.default;
    const ajv = new Ajv({
      allErrors: true,
      strict: false,
      // A property's `default` fills it in when absent (the arguments are a copy: arguments.ts).
      useDefaults: true,
      logger: false,
      addUsedSchema: false,
      code: { regExp: linearRegExp },
    });
    ajv.removeKeyword("uniqueItems");
    ajv.addKeyword({
      keyword: "uniqueItems",
      type: "array",
      schemaType: "boolean",
      validate: uniqueItems,
      errors: true,
    });
    return ajv;
  });
  return ajvInstance;
}

/** True when the schema has a regular expression anywhere (a key `pattern` or `patternProperties`). */
function hasPatterns(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasPatterns);
  if (typeof value !== "object" || value === null) return false;
  return Object.entries(value).some(([key, item]) =>
    key === "pattern" || key === "patternProperties" || hasPatterns(item)
  );
}

/** A compiled schema, or why it does not compile. */
export type CompiledSchema =
  | { readonly validate: ValidateFunction }
  | { readonly problem: string };

/** Compiled schemas per schema object. */
const compiled = new WeakMap<object, CompiledSchema>();

/**
 * Gives `parameters` a validator compiled ahead of time (a built-in tool's,
 * `builtin_validators.js`), so {@link compileToolSchema} never loads ajv for it.
 */
export function usePrecompiledSchema(
  parameters: Readonly<Record<string, unknown>>,
  validate: ValidateFunction,
): void {
  if (!compiled.has(parameters)) compiled.set(parameters, { validate });
}

/** The validator of `parameters`, or why the schema is invalid (ajv's or RE2's words). */
export async function compileToolSchema(
  parameters: Readonly<Record<string, unknown>>,
): Promise<CompiledSchema> {
  const cached = compiled.get(parameters);
  if (cached !== undefined) return cached;
  const [ajv] = await Promise.all([loadAjv(), hasPatterns(parameters) ? loadLinearRegExp() : null]);
  let result: CompiledSchema;
  try {
    // Only draft-07 is loaded; a schema naming another draft still validates its common keywords.
    const { $schema: _ignored, ...schema } = parameters;
    result = { validate: ajv.compile(schema) };
  } catch (error) {
    result = { problem: errorMessage(error) };
  }
  compiled.set(parameters, result);
  return result;
}
