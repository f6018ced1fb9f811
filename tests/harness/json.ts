/**
 * Typed access to JSON values that arrive as `unknown` (request bodies,
 * session lines), without casting.
 *
 * @module
 */

/** Whether a value is a plain JSON object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The value at a path of object keys and array indexes, or `undefined` when
 * any step is missing.
 *
 * @example
 * ```ts
 * at({ a: [{ b: 1 }] }, "a", 0, "b"); // 1
 * ```
 */
export function at(value: unknown, ...path: readonly (string | number)[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof key === "number") {
      if (!Array.isArray(current)) return undefined;
      current = current[key];
    } else {
      if (!isRecord(current)) return undefined;
      current = current[key];
    }
  }
  return current;
}

/** The array at a path; throws naming the path when it is not an array. */
export function arrayAt(value: unknown, ...path: readonly (string | number)[]): unknown[] {
  const found = at(value, ...path);
  if (!Array.isArray(found)) {
    throw new Error(`expected an array at ${path.join(".") || "the root"} (found ${show(found)})`);
  }
  return found;
}

/** The string at a path; throws naming the path when it is not a string. */
export function stringAt(value: unknown, ...path: readonly (string | number)[]): string {
  const found = at(value, ...path);
  if (typeof found !== "string") {
    throw new Error(`expected a string at ${path.join(".") || "the root"} (found ${show(found)})`);
  }
  return found;
}

/** Parses JSON text, returning `null` when it is not valid JSON. */
export function parseJsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Parses JSONL text into objects; throws naming the file and line on a bad line. */
export function parseJsonLines(text: string, file: string): Record<string, unknown>[] {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines.map((line, index) => {
    const value = parseJsonOrNull(line);
    if (!isRecord(value)) {
      throw new Error(`${file}:${index + 1}: not a JSON object: ${line.slice(0, 200)}`);
    }
    return value;
  });
}

function show(value: unknown): string {
  return value === undefined ? "nothing" : JSON.stringify(value)?.slice(0, 200) ?? String(value);
}
