/**
 * Key paths into parsed documents (config.yaml, agent frontmatter, a tool
 * call's arguments), printed the way people read them:
 * `providers.local.base_url`, `tools[1]`, `headers["x.y"]`; and the JSON
 * pointers of ajv errors turned into such paths.
 *
 * @module
 */

/** A path of mapping keys and list indexes from the document root. */
export type FieldPath = readonly (string | number)[];

const PLAIN_KEY_REGEXP = /^[A-Za-z0-9_-]+$/;

/**
 * Prints a path with dots between keys and brackets around indexes;
 * keys that are not plain words are quoted.
 *
 * @example
 * ```ts
 * import { formatFieldPath } from "./field_path.ts";
 * formatFieldPath(["providers", "local", "models", "a.b", "thinking_levels", 1]);
 * // 'providers.local.models["a.b"].thinking_levels[1]'
 * ```
 */
export function formatFieldPath(path: FieldPath): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else if (!PLAIN_KEY_REGEXP.test(segment)) text += `[${JSON.stringify(segment)}]`;
    else text += text === "" ? segment : `.${segment}`;
  }
  return text;
}

/**
 * Splits a JSON pointer such as ajv's `instancePath` into segments;
 * segments of digits index into `data`'s lists when `data` is given.
 */
export function parseJsonPointer(pointer: string, data?: unknown): FieldPath {
  if (pointer === "") return [];
  const segments: (string | number)[] = [];
  let node = data;
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (Array.isArray(node) && /^\d+$/.test(key)) {
      const index = Number(key);
      segments.push(index);
      node = node[index];
    } else {
      segments.push(key);
      node = valueAt(node, [key]);
    }
  }
  return segments;
}

/** The value at `path` inside `data` (list indexes as numbers or digit strings); undefined when absent. */
export function valueAt(data: unknown, path: FieldPath): unknown {
  let node = data;
  for (const segment of path) {
    if (typeof node !== "object" || node === null) return undefined;
    node = Array.isArray(node) ? node[Number(segment)] : (node as Record<string, unknown>)[segment];
  }
  return node;
}
