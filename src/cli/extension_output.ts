/**
 * What `rienda tools test` and `rienda hooks test` share: JSON flags
 * (`--args`, `--payload`, `--expect`) given inline, as `@file.json` or as
 * `-` (standard input), parsed as usage errors; `--expect` compared with
 * the result as a diff; and where an extension's notices go (stderr, one
 * line each; `ctx.notify` as `notify: <title>: <body>`, so an author sees it).
 *
 * @module
 */

import { resolve } from "node:path";
import { createTwoFilesPatch } from "diff";
import type { UserNotice } from "../extensions/run_context.ts";
import {
  type CapabilityPolicy,
  describeGrant,
  type GrantedExtension,
  grantOf,
} from "../extensions/capabilities.ts";
import { readTextFileAtMost } from "../host/read_at_most.ts";
import type { Io } from "../ui/io.ts";
import { UsageError } from "./exit.ts";
import { MAX_STDIN_BYTES } from "./prompt_input.ts";
import { errorMessage } from "../base/unknown.ts";

/** The most a JSON flag reads from a file or standard input. */
const MAX_JSON_FLAG_BYTES = MAX_STDIN_BYTES;

/** The text behind a JSON flag: itself, a file (`@path`, relative to `cwd`) or stdin (`-`). */
async function flagText(io: Io, flag: string, text: string, command: string): Promise<string> {
  const fail = (why: string) => new UsageError(`${flag} ${text}: ${why}`, command);
  if (text === "-") {
    const read = await io.readStdin(MAX_JSON_FLAG_BYTES);
    if (!read.complete) throw fail("standard input is larger than 32 MiB");
    return read.text;
  }
  if (!text.startsWith("@")) return text;
  const path = resolve(io.cwd, text.slice(1));
  let read;
  try {
    read = await readTextFileAtMost(path, MAX_JSON_FLAG_BYTES);
  } catch (error) {
    throw fail(
      error instanceof Deno.errors.NotFound
        ? `no such file ${path}`
        : `cannot read ${path}: ${errorMessage(error)}`,
    );
  }
  if (!read.complete) throw fail(`${path} is larger than 32 MiB`);
  return read.text;
}

/**
 * Parses the JSON of `flag`, given inline, as `@file.json` or `-` for
 * standard input; `{}` when it was not given.
 *
 * @throws {UsageError} naming the flag, where the text came from and the JSON problem
 */
export async function readJsonFlag(
  io: Io,
  flag: string,
  text: string | undefined,
  command: string,
): Promise<unknown> {
  if (text === undefined) return {};
  const json = await flagText(io, flag, text, command);
  try {
    return JSON.parse(json);
  } catch (error) {
    const from = text === "-" ? " (standard input)" : text.startsWith("@") ? ` (${text})` : "";
    throw new UsageError(`${flag}${from} is not valid JSON: ${errorMessage(error)}`, command);
  }
}

/** Only one JSON flag may read standard input. */
export function checkOneStdinFlag(
  flags: Readonly<Record<string, string | undefined>>,
  command: string,
): void {
  const reading = Object.entries(flags).filter(([, text]) => text === "-").map(([flag]) => flag);
  if (reading.length > 1) {
    throw new UsageError(`only one of ${reading.join(" and ")} can be - (standard input)`, command);
  }
}

/** JSON with sorted keys, two spaces per level: equal values print equal. */
function canonical(value: unknown): string {
  const sort = (item: unknown): unknown => {
    if (Array.isArray(item)) return item.map(sort);
    if (typeof item !== "object" || item === null) return item;
    return Object.fromEntries(
      Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map((
        [key, field],
      ) => [key, sort(field)]),
    );
  };
  return `${JSON.stringify(sort(value), null, 2)}\n`;
}

/**
 * Null when `actual` equals `expected` (JSON values, keys in any order);
 * else a unified diff of the two as indented JSON, under the headers
 * `--- expected` (`--expect`) and `+++ actual`.
 */
export function expectDiff(expected: unknown, actual: unknown): string | null {
  const want = canonical(expected);
  const got = canonical(actual);
  if (want === got) return null;
  // The first line of the patch is a rule of `=`.
  return createTwoFilesPatch("expected", "actual", want, got).split("\n").slice(1).join("\n");
}

/** Notice and `ctx.notify` callbacks that write to stderr. */
export function workbenchCallbacks(io: Io): {
  notice: (text: string) => void;
  notify: (notice: UserNotice) => void;
} {
  return {
    notice: (text) => io.stderr.write(`${text}\n`),
    notify: ({ title, body }) =>
      io.stderr.write(`notify: ${[title, body].filter((part) => part !== "").join(": ")}\n`),
  };
}

/** The line under a listed extension: `  capabilities: full access` (docs/extending.md). */
export function capabilitiesLine(extension: GrantedExtension, policy: CapabilityPolicy): string {
  return `  capabilities: ${describeGrant(grantOf(extension, policy))}\n`;
}
