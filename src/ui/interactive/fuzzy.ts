/**
 * Fuzzy ranking for pickers and completions (`fzf`'s algorithm): the best
 * matches first; an empty query keeps the original order.
 *
 * @module
 */

import { Fzf } from "fzf";

/** The items matching `query`, best first, at most `limit`. */
export function rank<T>(
  items: readonly T[],
  query: string,
  text: (item: T) => string,
  limit = Infinity,
): T[] {
  if (query === "") return items.slice(0, limit);
  const keyed = items.map((item, index) => ({ index, key: text(item) }));
  const finder = new Fzf(keyed, {
    selector: (entry) => entry.key,
    limit,
    casing: "case-insensitive",
  });
  return finder.find(query).map((entry) => items[entry.item.index]!);
}
