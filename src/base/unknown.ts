/**
 * Narrowing `unknown` values every folder meets: thrown errors and decoded
 * JSON.
 *
 * @module
 */

/** The message of any thrown value, without stack or host details. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Whether a value is a JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
