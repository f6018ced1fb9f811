/**
 * Typed reads of JSON that came over the wire: every value is `unknown` until
 * one of these checks it, so a provider sending an odd shape yields
 * `undefined` rather than a crash or a lie to the type checker.
 *
 * @module
 */

import { isRecord } from "../base/unknown.ts";

export { isRecord };

/** The string at `key`, or undefined. */
export function stringAt(value: unknown, key: string): string | undefined {
  if (!isRecord(value)) return undefined;
  const field = value[key];
  return typeof field === "string" ? field : undefined;
}

/** The finite number at `key`, or undefined. */
export function numberAt(value: unknown, key: string): number | undefined {
  if (!isRecord(value)) return undefined;
  const field = value[key];
  return typeof field === "number" && Number.isFinite(field) ? field : undefined;
}

/** The object at `key`, or undefined. */
export function recordAt(value: unknown, key: string): Record<string, unknown> | undefined {
  if (!isRecord(value)) return undefined;
  const field = value[key];
  return isRecord(field) ? field : undefined;
}

/** The array at `key`, or an empty array. */
export function arrayAt(value: unknown, key: string): readonly unknown[] {
  if (!isRecord(value)) return [];
  const field = value[key];
  return Array.isArray(field) ? field : [];
}
