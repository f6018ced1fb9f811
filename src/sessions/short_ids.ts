/**
 * Short forms of session ids (docs/sessions.md): ids are time-ordered ULIDs,
 * so sessions of one day share their first ten characters, while the end is
 * random. The short form of an id is its shortest end, at least
 * {@link MIN_SHORT_ID_CHARS} characters, that no other id of the workspace
 * starts or ends with; {@link matchingIds} accepts it, as it accepts a full
 * id or a unique prefix.
 *
 * @module
 */

/** The fewest characters of a short id (20 bits of randomness). */
export const MIN_SHORT_ID_CHARS = 4;

/**
 * The short form of each id, by id.
 *
 * @example
 * ```ts
 * shortIds(["01kb2x000000000000000000a7k2", "01kb2x0000000000000000009qzt"]);
 * // Map { "01kb2x000000000000000000a7k2" => "a7k2", "01kb2x0000000000000000009qzt" => "9qzt" }
 * ```
 */
export function shortIds(ids: readonly string[]): Map<string, string> {
  const shorts = new Map<string, string>();
  for (const id of ids) {
    let length = Math.min(MIN_SHORT_ID_CHARS, id.length);
    while (
      length < id.length &&
      ids.some((other) =>
        other !== id && (other.endsWith(id.slice(-length)) || other.startsWith(id.slice(-length)))
      )
    ) length++;
    shorts.set(id, id.slice(-length));
  }
  return shorts;
}

/**
 * The ids `wanted` names (lowercase): the one equal to it, else those it
 * starts, else (from {@link MIN_SHORT_ID_CHARS} characters on) those it ends.
 */
export function matchingIds(wanted: string, ids: readonly string[]): string[] {
  if (wanted === "") return [];
  if (ids.includes(wanted)) return [wanted];
  const prefixed = ids.filter((id) => id.startsWith(wanted));
  if (prefixed.length > 0 || wanted.length < MIN_SHORT_ID_CHARS) return prefixed;
  return ids.filter((id) => id.endsWith(wanted));
}
