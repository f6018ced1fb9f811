/**
 * A case's expectations checked against what its run did: each failed one
 * is named with what was expected and what happened (docs/testing.md).
 * A case that expects no exit code expects 0.
 *
 * @module
 */

import type { Expectations, TextMatcher } from "./case_file.ts";

/** What a run did, as the expectations look at it. */
export interface Observed {
  readonly exit: number;
  readonly stdout: string;
  /** The names of the tools the model called, in order. */
  readonly tools: readonly string[];
  /** The names of the calls a hook refused, in order. */
  readonly refused: readonly string[];
  /** A file of the workspace after the run, by relative path; null when there is none (or it leads outside). */
  readFile(path: string): Promise<string | null>;
}

/** One expectation that did not hold. */
export interface Failure {
  /** `stdout contains`, `exit`, `files["src/a.ts"] equals`. */
  readonly expectation: string;
  readonly expected: string;
  readonly actual: string;
}

/** The most characters of a value a failure shows. */
const MAX_SHOWN_CHARS = 300;

/** A value as a failure shows it: JSON, cut after {@link MAX_SHOWN_CHARS}. */
export function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_SHOWN_CHARS ? `${text.slice(0, MAX_SHOWN_CHARS)}…` : text;
}

function matchFailure(name: string, matcher: TextMatcher, actual: string | null): Failure | null {
  const got = actual === null ? "no such file in the workspace" : shown(actual);
  switch (matcher.kind) {
    case "contains":
      return actual !== null && actual.includes(matcher.text)
        ? null
        : { expectation: `${name} contains`, expected: shown(matcher.text), actual: got };
    case "equals":
      return actual === matcher.text
        ? null
        : { expectation: `${name} equals`, expected: shown(matcher.text), actual: got };
    case "matches":
      return actual !== null && matcher.regexp.test(actual)
        ? null
        : { expectation: `${name} matches`, expected: `/${matcher.pattern}/`, actual: got };
    default: {
      const never: never = matcher;
      throw new TypeError(`unknown matcher ${JSON.stringify(never)}`);
    }
  }
}

function listFailure(
  name: string,
  expected: readonly string[] | undefined,
  actual: readonly string[],
): Failure | null {
  if (expected === undefined || shown(expected) === shown(actual)) return null;
  return { expectation: name, expected: shown(expected), actual: shown(actual) };
}

/** The expectations of `expect` that `observed` does not meet, in the order of the case format. */
export async function checkExpectations(
  expect: Expectations,
  observed: Observed,
): Promise<Failure[]> {
  const failures: (Failure | null)[] = [];
  const exit = expect.exit ?? 0;
  if (observed.exit !== exit) {
    failures.push({ expectation: "exit", expected: String(exit), actual: String(observed.exit) });
  }
  if (expect.stdout !== undefined) {
    failures.push(matchFailure("stdout", expect.stdout, observed.stdout));
  }
  failures.push(listFailure("tools", expect.tools, observed.tools));
  failures.push(listFailure("refused", expect.refused, observed.refused));
  for (const [path, matcher] of expect.files ?? []) {
    failures.push(
      matchFailure(`files[${JSON.stringify(path)}]`, matcher, await observed.readFile(path)),
    );
  }
  return failures.filter((failure) => failure !== null);
}
