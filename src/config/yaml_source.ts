/**
 * YAML text → plain value, keeping node positions so errors can name the
 * line of the key or value they are about.
 *
 * @module
 */

import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument } from "yaml";
import type { FieldPath } from "../base/field_path.ts";
import { errorMessage } from "../base/unknown.ts";

/** A 1-based line and column in the YAML text. */
export interface YamlPosition {
  readonly line: number;
  readonly column: number;
}

/** A parsed YAML document: its plain value and a way to find where a path is written. */
export interface YamlSource {
  /** The document as plain JSON-like data (`null` for an empty document). */
  readonly value: unknown;
  /** Where the value at `path` is written (or its key, with `key: true`), when it exists. */
  locate(path: FieldPath, options?: { key?: boolean }): YamlPosition | undefined;
}

/** The outcome of {@link parseYaml}: a source, or the first syntax error. */
export type YamlParseResult =
  | { readonly ok: true; readonly source: YamlSource }
  | { readonly ok: false; readonly message: string; readonly position: YamlPosition };

const MAX_ALIAS_COUNT = 100;

/** Parses one YAML document (YAML 1.2 core schema, duplicate keys rejected). */
export function parseYaml(text: string): YamlParseResult {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const first = doc.errors[0];
  if (first !== undefined) {
    return {
      ok: false,
      message: firstLine(first.message),
      position: toPosition(lineCounter, first.pos[0]),
    };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    // toJS throws on alias bombs and similar abuse; report it like a syntax error.
    const message = errorMessage(error);
    return { ok: false, message: firstLine(message), position: { line: 1, column: 1 } };
  }
  const root: unknown = doc.contents;
  return {
    ok: true,
    source: {
      value: value ?? null,
      locate(path, options = {}) {
        const offset = findOffset(root, path, options.key === true);
        return offset === undefined ? undefined : toPosition(lineCounter, offset);
      },
    },
  };
}

function firstLine(message: string): string {
  const line = message.split("\n", 1)[0] ?? message;
  return line.replace(/[.:]\s*$/, "").replace(/^[A-Z](?=[a-z])/, (c) => c.toLowerCase());
}

function toPosition(lineCounter: LineCounter, offset: number): YamlPosition {
  const { line, col } = lineCounter.linePos(offset);
  return { line, column: col };
}

function findOffset(root: unknown, path: FieldPath, wantKey: boolean): number | undefined {
  let node = root;
  let keyNode: unknown = undefined;
  for (const segment of path) {
    keyNode = undefined;
    if (isMap(node)) {
      const pair = node.items.find((item) => isPair(item) && keyText(item.key) === String(segment));
      if (pair === undefined) return undefined;
      keyNode = pair.key;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === "number") {
      node = node.items[segment];
    } else {
      return undefined;
    }
  }
  const valueStart = rangeStart(node);
  const keyStart = rangeStart(keyNode);
  return wantKey ? keyStart ?? valueStart : valueStart ?? keyStart;
}

function keyText(key: unknown): string | undefined {
  return isScalar(key) ? String(key.value) : undefined;
}

function rangeStart(node: unknown): number | undefined {
  if (typeof node !== "object" || node === null || !("range" in node)) return undefined;
  const range: unknown = node.range;
  return Array.isArray(range) && typeof range[0] === "number" ? range[0] : undefined;
}
