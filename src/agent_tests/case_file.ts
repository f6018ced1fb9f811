/**
 * A `*.test.yaml` case of `rienda test` (docs/testing.md, "Test cases"): the
 * agent, the prompt, the cassette, the workspace, extra `rienda run` flags
 * and what to expect. Paths are relative to the case file.
 *
 * Everything is checked by {@link parseCaseFile}; the first problem is one
 * error naming the file, the line and the field.
 *
 * @module
 */

import { dirname, resolve } from "node:path";
import { describeValue } from "../config/describe_value.ts";
import { parseYaml, type YamlSource } from "../config/yaml_source.ts";
import { type FieldPath, formatFieldPath } from "../base/field_path.ts";
import { isRecord } from "../base/unknown.ts";

/** How a text is checked: it contains, equals or matches (a regular expression). */
export type TextMatcher =
  | { readonly kind: "contains"; readonly text: string }
  | { readonly kind: "equals"; readonly text: string }
  | { readonly kind: "matches"; readonly pattern: string; readonly regexp: RegExp };

/** What a case expects; every part is optional. */
export interface Expectations {
  readonly exit?: number;
  readonly stdout?: TextMatcher;
  /** The names of the tools the model called, in order. */
  readonly tools?: readonly string[];
  /** The names of the calls a hook refused, in order. */
  readonly refused?: readonly string[];
  /** Files of the workspace after the run (paths relative to it). */
  readonly files?: ReadonlyMap<string, TextMatcher>;
}

/** One case, its paths absolute. */
export interface TestCase {
  /** The case file. */
  readonly file: string;
  readonly agent:
    | { readonly kind: "id"; readonly id: string }
    | { readonly kind: "file"; readonly path: string }
    | { readonly kind: "default" };
  readonly prompt: string;
  readonly cassette: string;
  /** The folder copied into the run's temp workspace; null for an empty one. */
  readonly workspace: string | null;
  readonly args: readonly string[];
  readonly expect: Expectations;
}

/** A case file that cannot be used. */
export class CaseFileError extends Error {
  override name = "CaseFileError";
}

/** The suffix of case files. */
export const CASE_SUFFIX = ".test.yaml";

const CASE_KEYS = ["agent", "agent_file", "prompt", "cassette", "workspace", "args", "expect"];
const EXPECT_KEYS = ["exit", "stdout", "tools", "refused", "files"];
const MATCHER_KEYS = ["contains", "equals", "matches"];

class Problem extends Error {
  constructor(readonly path: FieldPath, message: string) {
    super(message);
  }
}

function knownKeys(value: Record<string, unknown>, keys: readonly string[], path: FieldPath) {
  for (const key of Object.keys(value)) {
    if (!keys.includes(key)) {
      throw new Problem([...path, key], `is not a field here (known: ${keys.join(", ")})`);
    }
  }
}

function mapping(value: unknown, path: FieldPath): Record<string, unknown> {
  if (!isRecord(value)) throw new Problem(path, `must be a mapping, found ${describeValue(value)}`);
  return value;
}

function text(value: unknown, path: FieldPath): string {
  if (typeof value !== "string") {
    throw new Problem(path, `must be a string, found ${describeValue(value)}`);
  }
  return value;
}

function optionalText(value: unknown, path: FieldPath): string | undefined {
  return value === undefined || value === null ? undefined : text(value, path);
}

function texts(value: unknown, path: FieldPath): string[] {
  if (!Array.isArray(value)) {
    throw new Problem(path, `must be a list of strings, found ${describeValue(value)}`);
  }
  return value.map((entry, index) => text(entry, [...path, index]));
}

function matcher(value: unknown, path: FieldPath): TextMatcher {
  const fields = mapping(value, path);
  knownKeys(fields, MATCHER_KEYS, path);
  const given = MATCHER_KEYS.filter((key) => fields[key] !== undefined);
  if (given.length !== 1) {
    throw new Problem(path, "must have exactly one of contains, equals or matches");
  }
  const [kind] = given;
  if (kind === "matches") {
    const pattern = text(fields.matches, [...path, "matches"]);
    try {
      return { kind: "matches", pattern, regexp: new RegExp(pattern, "u") };
    } catch (error) {
      throw new Problem([...path, "matches"], `is not a regular expression: ${String(error)}`);
    }
  }
  const kindName = kind === "equals" ? "equals" : "contains";
  return { kind: kindName, text: text(fields[kindName], [...path, kindName]) };
}

function expectations(value: unknown): Expectations {
  if (value === undefined || value === null) return {};
  const fields = mapping(value, ["expect"]);
  knownKeys(fields, EXPECT_KEYS, ["expect"]);
  const { exit } = fields;
  if (exit !== undefined && (typeof exit !== "number" || !Number.isInteger(exit) || exit < 0)) {
    throw new Problem(
      ["expect", "exit"],
      `must be an exit code (0, 1, …), found ${describeValue(exit)}`,
    );
  }
  const files = fields.files === undefined ? undefined : new Map(
    Object.entries(mapping(fields.files, ["expect", "files"]))
      .map(([path, entry]) => [path, matcher(entry, ["expect", "files", path])] as const),
  );
  return {
    ...(exit === undefined ? {} : { exit }),
    ...(fields.stdout === undefined
      ? {}
      : { stdout: matcher(fields.stdout, ["expect", "stdout"]) }),
    ...(fields.tools === undefined ? {} : { tools: texts(fields.tools, ["expect", "tools"]) }),
    ...(fields.refused === undefined
      ? {}
      : { refused: texts(fields.refused, ["expect", "refused"]) }),
    ...(files === undefined ? {} : { files }),
  };
}

function parseCase(source: YamlSource, file: string): TestCase {
  const fields = mapping(source.value, []);
  knownKeys(fields, CASE_KEYS, []);
  const here = dirname(file);
  const id = optionalText(fields.agent, ["agent"]);
  const agentFile = optionalText(fields.agent_file, ["agent_file"]);
  if (id !== undefined && agentFile !== undefined) {
    throw new Problem(["agent_file"], "cannot be given with agent: keep one of them");
  }
  const prompt = text(fields.prompt, ["prompt"]);
  if (prompt.trim() === "") {
    throw new Problem(["prompt"], "is empty: write what the agent is asked");
  }
  const cassette = optionalText(fields.cassette, ["cassette"]);
  const workspace = optionalText(fields.workspace, ["workspace"]);
  return {
    file,
    agent: id !== undefined
      ? { kind: "id", id }
      : agentFile !== undefined
      ? { kind: "file", path: resolve(here, agentFile) }
      : { kind: "default" },
    prompt,
    // The default sits beside the case: reviewer.test.yaml → reviewer.cassette.jsonl.
    cassette: resolve(
      here,
      cassette ?? `${file.slice(here.length + 1, -CASE_SUFFIX.length)}.cassette.jsonl`,
    ),
    workspace: workspace === undefined ? null : resolve(here, workspace),
    args: fields.args === undefined || fields.args === null ? [] : texts(fields.args, ["args"]),
    expect: expectations(fields.expect),
  };
}

/**
 * Reads the case in `text`, the contents of `file` (an absolute path).
 *
 * @throws {CaseFileError} naming the file, the line and the field of the first problem
 */
export function parseCaseFile(text: string, file: string): TestCase {
  const parsed = parseYaml(text);
  if (!parsed.ok) {
    throw new CaseFileError(`${file}:${parsed.position.line}: ${parsed.message}`);
  }
  try {
    return parseCase(parsed.source, file);
  } catch (error) {
    if (!(error instanceof Problem)) throw error;
    const line = parsed.source.locate(error.path, { key: true })?.line ??
      parsed.source.locate(error.path.slice(0, -1))?.line;
    const where = line === undefined ? file : `${file}:${line}`;
    const field = error.path.length === 0 ? "the file" : formatFieldPath(error.path);
    throw new CaseFileError(`${where}: ${field} ${error.message}`);
  }
}
