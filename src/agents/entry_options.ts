/**
 * The object form of a `tools:` or `hooks:` entry of an agent file
 * (docs/extensions.md, "Policy"): `- { name: guard, fail_closed: true,
 * timeout_ms: 5000 }` beside the plain name. Hooks take `fail_closed` and
 * `timeout_ms`, tools `timeout_ms` only.
 *
 * @module
 */

import { describeValue } from "../config/describe_value.ts";

/** What the agent says about one of its hooks; absent fields keep the defaults. */
export interface HookPolicy {
  /** Overrides the module's own `failClosed`. */
  readonly failClosed?: boolean;
  /** The most one invocation of the hook may take. */
  readonly timeoutMs?: number;
}

/** The longest `timeout_ms` (a timer's signed 32-bit delay, about 24.8 days). */
export const MAX_ENTRY_TIMEOUT_MS = 2 ** 31 - 1;

/** An object entry, read: its name, its settings, and the problems as `[key, message]`. */
export interface EntryObject {
  readonly name: unknown;
  readonly policy: HookPolicy;
  readonly problems: readonly (readonly [key: string | null, message: string])[];
}

/** Reads an object entry of `field`; the name is checked by the caller like a plain entry. */
export function readEntryObject(
  field: "tools" | "hooks",
  item: Readonly<Record<string, unknown>>,
): EntryObject {
  const allowed = field === "hooks"
    ? ["name", "fail_closed", "timeout_ms"]
    : ["name", "timeout_ms"];
  const problems: [string | null, string][] = [];
  let failClosed: boolean | undefined;
  let timeoutMs: number | undefined;
  for (const [key, value] of Object.entries(item)) {
    if (!allowed.includes(key)) {
      problems.push([key, `unknown key (expected one of: ${allowed.join(", ")})`]);
    } else if (key === "fail_closed") {
      if (typeof value === "boolean") failClosed = value;
      else problems.push([key, `must be true or false (found ${describeValue(value)})`]);
    } else if (key === "timeout_ms") {
      if (Number.isInteger(value) && Number(value) >= 1 && Number(value) <= MAX_ENTRY_TIMEOUT_MS) {
        timeoutMs = Number(value);
      } else {
        problems.push([
          key,
          `must be a whole number of milliseconds from 1 to ${MAX_ENTRY_TIMEOUT_MS} (found ${
            describeValue(value)
          })`,
        ]);
      }
    }
  }
  if (!("name" in item)) {
    const example = field === "hooks"
      ? "{ name: guard, fail_closed: true }"
      : "{ name: word-count, timeout_ms: 5000 }";
    problems.push([null, `missing "name" (such as ${example})`]);
  }
  return {
    name: item.name,
    policy: {
      ...(failClosed === undefined ? {} : { failClosed }),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    },
    problems,
  };
}

/**
 * `frontmatter` with the object entries of `tools:` and `hooks:` replaced by
 * their names: what `ctx.agent.tools` and `ctx.agent.hooks` show, so an
 * extension reads names whichever form the agent uses.
 */
export function withEntryNames(
  frontmatter: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  const names = (value: unknown) =>
    Array.isArray(value)
      ? value.map((item: unknown) =>
        typeof item === "object" && item !== null && "name" in item ? item.name : item
      )
      : value;
  const out = { ...frontmatter };
  if ("tools" in out) out.tools = names(out.tools);
  if ("hooks" in out) out.hooks = names(out.hooks);
  return out;
}
