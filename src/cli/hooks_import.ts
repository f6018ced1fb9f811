/**
 * `rienda hooks import-claude [SETTINGS_FILE] [--write]`: the hooks of
 * Claude Code settings as `claude:` entries of config.yaml's `hooks:`
 * (docs/extending.md, "Moving from Claude Code"). Without a file it reads
 * the user's `~/.claude/settings.json`, then the project's
 * `.claude/settings.json`. It prints the entries as YAML on stdout and what
 * it skipped on stderr; `--write` appends the entries config.yaml does not
 * have yet, keeping its comments, and checks the result before writing it.
 *
 * @module
 */

import { dirname, join, resolve } from "node:path";
import { appendHookEntries, type HookEntryFields } from "../config/append_hooks.ts";
import { parseConfig } from "../config/config.ts";
import { resolvePaths } from "../config/paths.ts";
import { findProjectRoot } from "../host/project_root.ts";
import { importClaudeSettings, type ImportedHook, importedKey } from "../hooks/claude_settings.ts";
import { errorMessage, isRecord } from "../base/unknown.ts";
import type { Io } from "../ui/io.ts";
import { EXIT, UsageError } from "./exit.ts";
import { parseYaml } from "../config/yaml_source.ts";

/** The flags of `rienda hooks import-claude`. */
export interface ImportClaudeFlags {
  readonly write: boolean;
  /** `--config PATH`. */
  readonly config: string | undefined;
}

const COMMAND = "hooks import-claude";

function fieldsOf(hook: ImportedHook): HookEntryFields {
  return {
    claude: hook.claude,
    ...(hook.matcher === undefined ? {} : { matcher: hook.matcher }),
    command: hook.command,
    ...(hook.timeoutMs === undefined ? {} : { "timeout_ms": hook.timeoutMs }),
  };
}

async function readIfPresent(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw new Error(`${path}: cannot read: ${errorMessage(error)}`, { cause: error });
  }
}

/** The settings files to read: the one named, else the user's and the project's that exist. */
async function settingsFiles(io: Io, file: string | undefined): Promise<string[]> {
  if (file !== undefined) return [resolve(io.cwd, file)];
  const home = io.env("HOME") ?? io.env("USERPROFILE");
  const project = join(await findProjectRoot(io.cwd), ".claude", "settings.json");
  return [...(home === undefined ? [] : [join(home, ".claude", "settings.json")]), project];
}

/** The hooks of every settings file, in order, each entry once; skips go to stderr. */
async function importAll(io: Io, file: string | undefined): Promise<ImportedHook[]> {
  const files = await settingsFiles(io, file);
  const hooks: ImportedHook[] = [];
  const seen = new Set<string>();
  let found = 0;
  for (const path of files) {
    const text = await readIfPresent(path);
    if (text === null) {
      if (file !== undefined) throw new UsageError(`${path}: no such file`, COMMAND);
      continue;
    }
    found++;
    let settings: unknown;
    try {
      settings = JSON.parse(text);
    } catch (error) {
      throw new Error(`${path}: not JSON: ${errorMessage(error)}`, { cause: error });
    }
    const imported = importClaudeSettings(settings);
    for (const note of imported.skipped) io.stderr.write(`${path}: skipped ${note}\n`);
    for (const hook of imported.hooks) {
      if (hook.command.includes("CLAUDE_PLUGIN_ROOT")) {
        io.stderr.write(
          `${path}: ${hook.claude}: the command uses CLAUDE_PLUGIN_ROOT, which rienda does not set: write the plugin's folder in its place\n`,
        );
      }
      if (seen.has(importedKey(hook))) continue;
      seen.add(importedKey(hook));
      hooks.push(hook);
    }
  }
  if (found === 0) {
    throw new Error(`no Claude Code settings found (looked for ${files.join(" and ")})`);
  }
  return hooks;
}

/** The `claude:` entries config.yaml's `hooks:` already has, by {@link importedKey}. */
function presentKeys(text: string): Set<string> {
  const parsed = parseYaml(text);
  const keys = new Set<string>();
  if (!parsed.ok || !isRecord(parsed.source.value)) return keys;
  const list = parsed.source.value.hooks;
  if (!Array.isArray(list)) return keys;
  for (const item of list) {
    if (!isRecord(item) || typeof item.claude !== "string" || typeof item.command !== "string") {
      continue;
    }
    const matcher = typeof item.matcher === "string" ? item.matcher : undefined;
    keys.add(JSON.stringify([item.claude, matcher ?? "", item.command]));
  }
  return keys;
}

/** Writes `text` over `path` through a temporary file, keeping the old file's mode. */
async function replaceFile(path: string, text: string): Promise<void> {
  const mode = await Deno.stat(path).then((info) => info.mode ?? 0o600, () => 0o600);
  const temp = `${path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    await Deno.writeTextFile(temp, text, { mode: mode & 0o777, createNew: true });
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw new Error(`${path}: cannot write: ${errorMessage(error)}`, { cause: error });
  }
}

/** `rienda hooks import-claude`: prints (and with `--write` appends) the entries. */
export async function hooksImportClaude(
  io: Io,
  file: string | undefined,
  flags: ImportClaudeFlags,
): Promise<number> {
  const hooks = await importAll(io, file);
  const entries = hooks.map(fieldsOf);
  if (entries.length === 0) {
    io.stderr.write("no hooks to import\n");
    return EXIT.ok;
  }
  io.stdout.write(appendHookEntries("", entries));
  if (!flags.write) return EXIT.ok;
  const paths = resolvePaths(io.env, flags.config === undefined ? {} : { config: flags.config });
  const before = (await readIfPresent(paths.configFile)) ?? "";
  const present = presentKeys(before);
  const added = hooks.filter((hook) => !present.has(importedKey(hook))).map(fieldsOf);
  if (added.length === 0) {
    io.stderr.write(`${paths.configFile} has all of them already\n`);
    return EXIT.ok;
  }
  let after: string;
  try {
    after = appendHookEntries(before, added);
  } catch (error) {
    throw new Error(`${paths.configFile}: cannot add hooks: ${errorMessage(error)}`, {
      cause: error,
    });
  }
  // The file is written only when rienda reads it back as it is now plus the entries.
  parseConfig(after, paths.configFile);
  await Deno.mkdir(dirname(paths.configFile), { recursive: true, mode: 0o700 });
  await replaceFile(paths.configFile, after);
  const count = added.length === 1 ? "1 hook" : `${added.length} hooks`;
  io.stderr.write(`added ${count} to ${paths.configFile}\n`);
  return EXIT.ok;
}
