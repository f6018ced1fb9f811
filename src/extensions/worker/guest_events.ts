/**
 * Checks the live events a guest emits before they leave the worker, so a
 * malformed `ctx.notify` fails synchronously in the guest.
 *
 * @module
 */

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** An error message for a malformed `ctx.notify({ title, body })` (JSON text), or "" when it is fine. */
export function checkNotice(json: string): string {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return "ctx.notify: expected { title, body }";
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return `ctx.notify: expected { title, body } (found ${kindOf(value)})`;
  }
  for (const key of ["title", "body"]) {
    const field: unknown = Reflect.get(value, key);
    if (field !== undefined && typeof field !== "string") {
      return `ctx.notify: ${key} must be a string (found ${kindOf(field)})`;
    }
  }
  return "";
}
