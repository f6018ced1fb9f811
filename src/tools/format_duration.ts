/**
 * Durations in the words tool results use (`command timed out after 1.5s`).
 *
 * @module
 */

/**
 * `ms` as `200ms` under one second, otherwise in seconds (`1.5s`, `120s`).
 *
 * @example
 * ```ts
 * import { formatDuration } from "./format_duration.ts";
 * formatDuration(200); // "200ms"
 * formatDuration(120000); // "120s"
 * ```
 */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms}ms` : `${ms / 1000}s`;
}
