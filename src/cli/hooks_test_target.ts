/**
 * Which hook `rienda hooks test` runs (docs/cli.md): a JavaScript hook by
 * NAME, entry N of `rienda hooks` (`--entry N`), or the command of
 * `--command` (an argv list, or a whole entry as `hooks:` takes it); each
 * as the entry a run would call, with its settings.
 *
 * - NAME takes the settings of config.yaml's entry for it, else of the
 *   `--agent`'s, as a run does; a hook no entry names runs with its own.
 * - With `--entry` or `--command` the one positional argument is the
 *   point, which may be left out when the hook runs at one point only.
 *
 * @module
 */

import { formatFieldPath } from "../base/field_path.ts";
import type { SourcedHookEntry } from "../config/hook_entries.ts";
import { parseHookEntries } from "../config/parse_hook_entries.ts";
import type { Io } from "../ui/io.ts";
import { UsageError } from "./exit.ts";
import { readJsonFlag } from "./extension_output.ts";

const COMMAND = "hooks test";

/** How the hook is chosen, from the positional arguments and the flags. */
export type HookChoice =
  | { readonly kind: "name"; readonly name: string; readonly point: string }
  | { readonly kind: "entry"; readonly number: number; readonly point: string | undefined }
  | { readonly kind: "command"; readonly text: string; readonly point: string | undefined };

/**
 * The choice the words and `--entry` / `--command` make.
 *
 * @throws {UsageError} for both flags, a missing NAME or POINT, extra words, a bad number
 */
export function hookChoice(
  words: readonly (string | undefined)[],
  flags: { readonly entry: string | undefined; readonly command: string | undefined },
): HookChoice {
  const given = words.filter((word): word is string => word !== undefined);
  if (flags.entry !== undefined && flags.command !== undefined) {
    throw new UsageError("--entry and --command choose the hook: give one of them", COMMAND);
  }
  if (flags.entry === undefined && flags.command === undefined) {
    const [name, point, ...rest] = given;
    if (name === undefined || point === undefined) {
      throw new UsageError(
        name === undefined
          ? "missing NAME and POINT (or --entry N, or --command JSON, and POINT)"
          : `missing POINT (after the hook's name ${name})`,
        COMMAND,
      );
    }
    if (rest.length > 0) throw new UsageError(`unexpected ${rest.join(" ")}`, COMMAND);
    return { kind: "name", name, point };
  }
  const flag = flags.entry === undefined ? "--command" : "--entry";
  if (given.length > 1) {
    throw new UsageError(`with ${flag} give only the POINT (found ${given.join(" ")})`, COMMAND);
  }
  const [point] = given;
  if (flags.command !== undefined) return { kind: "command", text: flags.command, point };
  const number = Number(flags.entry);
  if (!Number.isInteger(number) || number < 1) {
    throw new UsageError(
      `--entry must be the number of an entry of rienda hooks, 1 or more (found ${
        JSON.stringify(flags.entry)
      })`,
      COMMAND,
    );
  }
  return { kind: "entry", number, point };
}

/**
 * The entry `choice` names among `ordered` (config.yaml's and the agent's, in run order).
 *
 * @throws {UsageError} for an entry number past the list or a `--command` that is not an entry
 */
export async function chosenEntry(
  io: Io,
  choice: HookChoice,
  run: { readonly ordered: readonly SourcedHookEntry[]; readonly agentId: string | undefined },
): Promise<SourcedHookEntry> {
  switch (choice.kind) {
    case "name": {
      const listed = run.ordered.find(({ entry }) =>
        entry.kind === "script" && entry.name === choice.name
      );
      return listed ??
        { entry: { kind: "script", name: choice.name, index: 0, priority: 0 }, source: "agent" };
    }
    case "entry": {
      const listed = run.ordered[choice.number - 1];
      if (listed !== undefined) return listed;
      const agent = run.agentId ?? "default";
      throw new UsageError(
        `--entry ${choice.number}: a run of agent ${agent} has ${
          run.ordered.length === 1 ? "1 hook entry" : `${run.ordered.length} hook entries`
        } (rienda hooks -a ${agent} lists them)`,
        COMMAND,
      );
    }
    case "command":
      return await commandEntry(io, choice.text);
  }
}

/** The entry of `--command`: an argv list, or an entry object as `hooks:` holds it. */
async function commandEntry(io: Io, text: string): Promise<SourcedHookEntry> {
  const value = await readJsonFlag(io, "--command", text, COMMAND);
  if (typeof value === "string") {
    throw new UsageError(
      `--command: must be an argv list such as ["node", "hooks/x.mjs"] (found ${
        JSON.stringify(value)
      }); a command hook never runs through a shell`,
      COMMAND,
    );
  }
  const written = Array.isArray(value) ? { command: value } : value;
  const { entries, problems } = parseHookEntries([written], "--command");
  const [entry] = entries;
  if (entry?.kind === "script") {
    throw new UsageError(
      `--command: runs a command hook; a JavaScript hook is tested by its NAME (${entry.name})`,
      COMMAND,
    );
  }
  if (entry !== undefined) return { entry, source: "config", file: "--command" };
  const [problem] = problems;
  // `--command[0].command[1]` → `--command.command[1]` (or `--command[1]` for an argv list).
  const path = problem === undefined ? ["--command"] : [
    "--command",
    ...problem.path.slice(Array.isArray(value) ? 3 : 2),
  ];
  throw new UsageError(
    `${formatFieldPath(path)}: ${problem?.message ?? "not a hook entry"}`,
    COMMAND,
  );
}
