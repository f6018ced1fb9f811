/**
 * ajv validation errors → problems worded for people editing YAML:
 * `providers.local.base_url: must be a string (found 42)`.
 *
 * @module
 */

import type { ErrorObject } from "ajv";
import { describeKind, describeValue } from "./describe_value.ts";
import { type FieldPath, parseJsonPointer } from "../base/field_path.ts";
import { isRecord } from "../base/unknown.ts";

/** One problem in a document, at a key path. */
export interface SchemaIssue {
  /** The key path the problem is about. */
  readonly path: FieldPath;
  /** The problem, without the path. */
  readonly message: string;
  /** True when the problem is the key itself (an unknown key), not its value. */
  readonly key?: boolean;
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  object: "a mapping",
  array: "a list",
  string: "a string",
  number: "a number",
  integer: "an integer",
  boolean: "a boolean",
};

/** Words each ajv error of `data` as a {@link SchemaIssue}, dropping duplicates. */
export function issuesFromAjv(errors: readonly ErrorObject[], data: unknown): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const issue = toIssue(error, parseJsonPointer(error.instancePath, data));
    const id = JSON.stringify([issue.path, issue.message]);
    if (seen.has(id)) continue;
    seen.add(id);
    issues.push(issue);
  }
  return issues;
}

/** Fields whose value may be a key: a problem names the kind of value found, never the value. */
function holdsSecret(path: FieldPath): boolean {
  const field = path[2];
  if (path[0] === "mcp_servers") {
    return field === "env" || field === "headers" || field === "token_env";
  }
  return path[0] === "providers" &&
    (field === "api_key" || field === "api_key_env" || field === "headers");
}

function toIssue(error: ErrorObject, path: FieldPath): SchemaIssue {
  const params: Record<string, unknown> = error.params;
  const shown = holdsSecret(path) ? describeKind(error.data) : describeValue(error.data);
  const found = `(found ${shown})`;
  switch (error.keyword) {
    case "additionalProperties": {
      const key = String(params["additionalProperty"]);
      const expected = knownKeys(error.parentSchema);
      return {
        path: [...path, key],
        message: `unknown key (expected one of: ${expected})`,
        key: true,
      };
    }
    case "type":
      return { path, message: `must be ${typeWords(params["type"])} ${found}` };
    case "enum":
      return { path, message: `must be one of: ${listOf(params["allowedValues"])} ${found}` };
    case "minimum":
    case "exclusiveMinimum":
    case "maximum":
    case "exclusiveMaximum":
      return { path, message: `must be ${limitWords(params)} ${found}` };
    case "minLength":
      return { path, message: "must not be empty" };
    case "not":
      return { path, message: notWords(error.schema, found) };
    default:
      return { path, message: `${error.message ?? "is invalid"} ${found}` };
  }
}

function knownKeys(schema: unknown): string {
  const properties = isRecord(schema) ? schema["properties"] : undefined;
  return isRecord(properties) ? Object.keys(properties).join(", ") : "none";
}

function typeWords(type: unknown): string {
  const names = Array.isArray(type) ? type : String(type).split(",");
  const words = names.filter((name) => name !== "null").map((name) =>
    TYPE_WORDS[String(name)] ?? String(name)
  );
  return words.join(" or ");
}

// The schema writes "non-empty string" as `not: { const: "" }` (see config_schema.ts).
function notWords(schema: unknown, found: string): string {
  return isRecord(schema) && schema["const"] === ""
    ? "must not be empty"
    : `must not be this value ${found}`;
}

function listOf(values: unknown): string {
  return Array.isArray(values) ? values.map(String).join(", ") : String(values);
}

function limitWords(params: Record<string, unknown>): string {
  const limit = String(params["limit"]);
  switch (params["comparison"]) {
    case ">=":
      return `at least ${limit}`;
    case ">":
      return `greater than ${limit}`;
    case "<=":
      return `at most ${limit}`;
    default:
      return `less than ${limit}`;
  }
}
