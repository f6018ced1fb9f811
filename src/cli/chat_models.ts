/**
 * The chat's `/model` picker: the concrete models and the aliases of every
 * ready provider (`rienda models`' rows that are ready), aliases shown with
 * what they stand for (`sonnet → anthropic/claude-sonnet-4-5`), and last,
 * per keyed built-in provider, a row to type any other model id of it.
 *
 * @module
 */

import type { Config } from "../config/config.ts";
import { BUILTIN_MODEL_ALIASES } from "../config/model_names.ts";
import type { Choice } from "../ui/interactive/backend.ts";
import type { ModelRow } from "../app/model_rows.ts";

/** The picker rows of `rows` (value: the reference to use), `current` marked. */
export function modelChoices(rows: readonly ModelRow[], config: Config, current: string): Choice[] {
  const aliases: Readonly<Record<string, string>> = {
    ...BUILTIN_MODEL_ALIASES,
    ...config.modelAliases,
  };
  const ready = rows.filter((row) => row.ready);
  const choice = (row: ModelRow): Choice => {
    const target = Object.hasOwn(aliases, row.ref) ? aliases[row.ref] : undefined;
    const isCurrent = row.ref === current || target === current;
    return {
      value: row.ref,
      label: target === undefined ? row.ref : `${row.ref} → ${target}`,
      detail: `${isCurrent ? "current · " : ""}${row.detail.replace(/^alias of [^;]*; /, "")}`,
    };
  };
  const concrete = ready.filter((row) => !row.ref.endsWith("/*")).map(choice);
  const others = ready.filter((row) => row.ref.endsWith("/*")).map((row) => ({
    value: row.ref,
    label: `${row.ref.slice(0, -1)}…`,
    detail: `another model id of ${row.ref.slice(0, -2)}: type it`,
  }));
  return [...concrete, ...others];
}
