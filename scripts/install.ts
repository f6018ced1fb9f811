/**
 * `deno task install [--dir DIR]`: writes a `rienda` launcher into DIR
 * (default `~/.local/bin`) that runs the CLI from this checkout with exactly
 * the binary's permission set (`-P=rienda --no-prompt`, deno.json
 * "permissions.rienda"), in the caller's directory, so shebang agents
 * (`#!/usr/bin/env -S rienda run -f`) work without the compiled binary. It
 * says where the launcher went and whether DIR is on `PATH`.
 *
 * A file already at DIR/rienda is replaced only when it is such a launcher.
 *
 * @module
 */

import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The line that marks a file as a launcher this script wrote (and may replace). */
export const LAUNCHER_MARK = "# rienda launcher written by `deno task install`";

/** The launcher's text: `sh` running `deno run` on this checkout's entry point. */
export function launcherText(deno: string, checkout: string): string {
  const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
  return [
    "#!/bin/sh",
    `${LAUNCHER_MARK} (${checkout})`,
    `exec ${quote(deno)} run -q --no-prompt --config ${quote(join(checkout, "deno.json"))} ` +
    `-P=rienda ${quote(join(checkout, "src", "main.ts"))} "$@"`,
    "",
  ].join("\n");
}

/** The folder of `--dir DIR` / `--dir=DIR`, else `~/.local/bin`. */
export function targetDir(args: readonly string[], home: string | undefined): string {
  for (const [index, arg] of args.entries()) {
    if (arg === "--dir" && args[index + 1] !== undefined) return resolve(args[index + 1]!);
    if (arg.startsWith("--dir=")) return resolve(arg.slice("--dir=".length));
  }
  if (home === undefined || home === "") {
    throw new Error("HOME is not set: pass the folder with deno task install --dir DIR");
  }
  return join(home, ".local", "bin");
}

async function install(args: readonly string[]): Promise<string[]> {
  const unknown = args.filter((arg, index) =>
    arg !== "--dir" && !arg.startsWith("--dir=") && args[index - 1] !== "--dir"
  );
  if (unknown.length > 0) {
    throw new Error(`unknown argument ${unknown[0]} (usage: deno task install [--dir DIR])`);
  }
  const dir = targetDir(args, Deno.env.get("HOME"));
  const checkout = dirname(dirname(fileURLToPath(import.meta.url)));
  const path = join(dir, "rienda");
  const existing = await Deno.readTextFile(path).catch(() => null);
  if (existing !== null && !existing.includes(LAUNCHER_MARK)) {
    throw new Error(
      `${path} exists and is not a rienda launcher: remove it, or pass another folder with --dir DIR`,
    );
  }
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(path, launcherText(Deno.execPath(), checkout), { mode: 0o755 });
  await Deno.chmod(path, 0o755);
  const onPath = (Deno.env.get("PATH") ?? "").split(":").some((entry) =>
    entry !== "" && resolve(entry) === dir
  );
  return [
    `installed ${path}: it runs rienda from ${checkout} with the permission set "rienda" of deno.json`,
    onPath
      ? `${dir} is on your PATH: run rienda --help`
      : `${dir} is not on your PATH: add it (e.g. export PATH="${dir}:$PATH" in your shell profile)`,
  ];
}

if (import.meta.main) {
  try {
    for (const line of await install(Deno.args)) {
      await Deno.stdout.write(new TextEncoder().encode(`${line}\n`));
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await Deno.stderr.write(new TextEncoder().encode(`install: ${message}\n`));
    Deno.exit(1);
  }
}
