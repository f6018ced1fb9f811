/**
 * The command words of an invocation checked against the command tree before
 * commander parses it (docs/cli.md, Help, version and typos): an unknown command or subcommand
 * is one `rienda: …` line with the closest name, never the whole usage, and
 * `rienda help foo` never reaches commander's help of an unknown command.
 *
 * @module
 */

import type { Command } from "commander";
import { distance } from "fastest-levenshtein";
import { UsageError } from "./exit.ts";

/**
 * The usage error for the first unknown command word of `argv` (words before
 * any flag, while the command reached has subcommands); null when there is none.
 */
export function unknownCommandError(program: Command, argv: readonly string[]): UsageError | null {
  let current = program;
  const path: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const word = argv[index]!;
    if (word.startsWith("-") || current.commands.length === 0) return null;
    if (word === "help") {
      const target = argv[index + 1];
      if (target === undefined || target.startsWith("-")) return null;
      return subcommand(current, target) === undefined ? unknown(current, path, target) : null;
    }
    const next = subcommand(current, word);
    if (next === undefined) return unknown(current, path, word);
    current = next;
    path.push(word);
  }
  return null;
}

/** The closest of `candidates` to `word`, when it is a plausible typo of it. */
export function closestName(word: string, candidates: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const d = typoDistance(word.toLowerCase(), name.toLowerCase());
    if (best === undefined || d < best.distance) best = { name, distance: d };
  }
  // One edit for short words, two (a swapped pair) from four characters on.
  const allowed = word.length >= 4 ? 2 : 1;
  if (best !== undefined && best.distance <= allowed) return best.name;
  // A prefix of a single command is its start: `sess` → `sessions`.
  const prefixed = candidates.filter((name) => word.length >= 2 && name.startsWith(word));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/** Levenshtein distance, with two swapped letters counted as one edit (`rnu` → `run`). */
function typoDistance(a: string, b: string): number {
  const d = distance(a, b);
  const sorted = (text: string) => [...text].sort().join("");
  return d === 2 && a.length === b.length && sorted(a) === sorted(b) ? 1 : d;
}

function subcommand(command: Command, word: string): Command | undefined {
  return command.commands.find((sub) => sub.name() === word || sub.aliases().includes(word));
}

function unknown(command: Command, path: readonly string[], word: string): UsageError {
  const names = [...command.commands.map((sub) => sub.name()), "help"];
  const suggestion = closestName(word, names);
  const what = path.length === 0 ? "command" : `${path.join(" ")} command`;
  const where = ["rienda", ...path, "--help"].join(" ");
  return new UsageError(
    `unknown ${what} "${word}"${
      suggestion === undefined ? "" : `: did you mean ${suggestion}?`
    } (${where} lists them)`,
  );
}
