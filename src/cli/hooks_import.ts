/**
 * `rienda hooks import-claude [SETTINGS_FILE] [--write]`: the hooks of
 * Claude Code settings as `claude:` entries of config.yaml's `hooks:`
 * (docs/extending.md, "Moving from Claude Code"). Without a file it reads
 * the user's `~/.claude/settings.json`, then the project's
 * `.claude/settings.json`. It prints the entries as YAML on stdout (the
 * project's under a comment naming its file) and what it skipped on stderr.
 *
 * `--write` appends the entries config.yaml does not have yet, keeping its
 * comments, and checks the result before writing it. config.yaml's hooks
 * run in every workspace, so without a file named it adds only the user's:
 * a project's hook usually runs a script of that repository
 * (`$CLAUDE_PROJECT_DIR/.claude/hooks/x.sh`), which in config.yaml would run
 * whatever file of that name any repository holds. Stderr says so, and warns
 * about each hook it adds that names a workspace file.
 *
 * @module
 */

import { dirname, join, resolve } from "node:path";
import { appendHookEntries, type HookEntryFields } from "../config/append_hooks.ts";
import { parseConfig } from "../config/config.ts";
import { resolvePaths } from "../config/paths.ts";
import { findProjectRoot } from "../host/project_root.ts";
import {
  importClaudeSettings,
  type ImportedHook,
  importedKey,
  namesWorkspaceFile,
} from "../hooks/claude_settings.ts";
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

/** A settings file to read, and whether it is the project's (found, not named). */
interface SettingsFile {
  readonly path: string;
  readonly project: boolean;
}

/** Its hooks not seen in an earlier file. */
interface ImportedFile extends SettingsFile {
  readonly hooks: readonly ImportedHook[];
}

/** The settings files to read: the one named, else the user's and the project's. */
async function settingsFiles(io: Io, file: string | undefined): Promise<SettingsFile[]> {
  if (file !== undefined) return [{ path: resolve(io.cwd, file), project: false }];
  const home = io.env("HOME") ?? io.env("USERPROFILE");
  const user = home === undefined
    ? []
    : [{ path: join(home, ".claude", "settings.json"), project: false }];
  const project = join(await findProjectRoot(io.cwd), ".claude", "settings.json");
  // Started in the home folder, the project's file is the user's.
  return user.some(({ path }) => path === project)
    ? user
    : [...user, { path: project, project: true }];
}

/** The hooks of every settings file that exists, in order, each entry once; skips go to stderr. */
async function importAll(io: Io, file: string | undefined): Promise<ImportedFile[]> {
  const files = await settingsFiles(io, file);
  const imported: ImportedFile[] = [];
  const seen = new Set<string>();
  for (const { path, project } of files) {
    const text = await readIfPresent(path);
    if (text === null) {
      if (file !== undefined) throw new UsageError(`${path}: no such file`, COMMAND);
      continue;
    }
    let settings: unknown;
    try {
      settings = JSON.parse(text);
    } catch (error) {
      throw new Error(`${path}: not JSON: ${errorMessage(error)}`, { cause: error });
    }
    const read = importClaudeSettings(settings);
    for (const note of read.skipped) io.stderr.write(`${path}: skipped ${note}\n`);
    const hooks: ImportedHook[] = [];
    for (const hook of read.hooks) {
      if (hook.command.includes("CLAUDE_PLUGIN_ROOT")) {
        io.stderr.write(
          `${path}: ${hook.claude}: the command uses CLAUDE_PLUGIN_ROOT, which rienda does not set: write the plugin's folder in its place\n`,
        );
      }
      if (seen.has(importedKey(hook))) continue;
      seen.add(importedKey(hook));
      hooks.push(hook);
    }
    imported.push({ path, project, hooks });
  }
  if (imported.length === 0) {
    throw new Error(
      `no Claude Code settings found (looked for ${files.map(({ path }) => path).join(" and ")})`,
    );
  }
  return imported;
}

/** The entries as YAML: the user's (or the named file's), then the project's under a comment. */
function printed(own: readonly ImportedHook[], project: ImportedFile | undefined): string {
  const text = own.length === 0 ? "" : appendHookEntries("", own.map(fieldsOf));
  if (project === undefined) return text;
  return appendHookEntries(
    text,
    project.hooks.map(fieldsOf),
    `the project's, from ${project.path}: for an agent you run in this project, not for config.yaml`,
  );
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

/** Stderr's word on the project's hooks `--write` leaves out. */
function projectNote(project: ImportedFile, configFile: string): string {
  const count = project.hooks.length === 1 ? "hook was" : `${project.hooks.length} hooks were`;
  return `${project.path}: the project's ${count} not added to ${configFile}, whose hooks run in every repository (a script the project names would run in any repository holding a file there): paste them into the hooks: of a home agent you run in this project (~/.rienda/agents/ID.md, -a ID), or name the file to add them anyway (rienda hooks import-claude ${project.path} --write)\n`;
}

/** Stderr's warning on an added hook that runs a file of the workspace. */
function workspaceWarning(path: string, hook: ImportedHook): string {
  return `${path}: ${hook.claude}: "${hook.command}" names $CLAUDE_PROJECT_DIR or a relative path: in config.yaml it runs in every workspace you trust, so any repository you trust holding a file there gets it run (to keep it to one project, put it in the hooks: of a home agent you run there)\n`;
}

/** `rienda hooks import-claude`: prints (and with `--write` appends) the entries. */
export async function hooksImportClaude(
  io: Io,
  file: string | undefined,
  flags: ImportClaudeFlags,
): Promise<number> {
  const files = await importAll(io, file);
  const own = files.filter(({ project }) => !project).flatMap(({ hooks }) => hooks);
  const project = files.find((read) => read.project && read.hooks.length > 0);
  if (own.length === 0 && project === undefined) {
    io.stderr.write("no hooks to import\n");
    return EXIT.ok;
  }
  io.stdout.write(printed(own, project));
  if (!flags.write) return EXIT.ok;
  const paths = resolvePaths(io.env, flags.config === undefined ? {} : { config: flags.config });
  if (project !== undefined) io.stderr.write(projectNote(project, paths.configFile));
  if (own.length === 0) return EXIT.ok;
  const before = (await readIfPresent(paths.configFile)) ?? "";
  const present = presentKeys(before);
  const added = own.filter((hook) => !present.has(importedKey(hook)));
  if (added.length === 0) {
    io.stderr.write(`${paths.configFile} has all of them already\n`);
    return EXIT.ok;
  }
  let after: string;
  try {
    after = appendHookEntries(before, added.map(fieldsOf));
  } catch (error) {
    throw new Error(`${paths.configFile}: cannot add hooks: ${errorMessage(error)}`, {
      cause: error,
    });
  }
  // The file is written only when rienda reads it back as it is now plus the entries.
  parseConfig(after, paths.configFile);
  await Deno.mkdir(dirname(paths.configFile), { recursive: true, mode: 0o700 });
  await replaceFile(paths.configFile, after);
  for (const { path, hooks } of files) {
    for (const hook of hooks) {
      if (added.includes(hook) && namesWorkspaceFile(hook.command)) {
        io.stderr.write(workspaceWarning(path, hook));
      }
    }
  }
  const count = added.length === 1 ? "1 hook" : `${added.length} hooks`;
  io.stderr.write(`added ${count} to ${paths.configFile}\n`);
  return EXIT.ok;
}
