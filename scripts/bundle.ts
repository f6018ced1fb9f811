/**
 * `deno bundle` of the CLI into one folder of JavaScript, what the release
 * binary and the npm package run (docs/performance.md: the bundle starts
 * faster than the module graph). The npm dependencies and the QuickJS `.wasm`
 * are inside it; it needs no `deno.json` and no npm download.
 *
 * The entry points are `src/main.ts` and the modules the CLI loads by a
 * computed specifier or as a worker (`LAZY_ENTRIES`, `lazy_entries.ts`); code splitting
 * keeps them lazy. Their specifiers are spelled for the source tree, so each
 * is respelled to the bundled file, and the build stamp of `src/base/version.ts`
 * is filled in, and esbuild's `require` is made on first use. Every replacement
 * must match exactly once.
 *
 * `deno run -A scripts/bundle.ts OUTDIR [KIND]` (KIND: binary or npm).
 *
 * @module
 */

import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { LAZY_ENTRIES } from "./lazy_entries.ts";

export { LAZY_ENTRIES };

/** The repository root. */
export const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** The CLI's entry point. */
export const MAIN = "src/main.ts";

/** Where an entry point lands in the bundle (the bundler mirrors `src/`), relative to it. */
export function bundledPath(module: string): string {
  return module.replace(/^src\//, "").replace(/\.ts$/, ".js");
}

/**
 * esbuild's `require` for the CommonJS packages in the bundle, made at load from
 * `node:module`, and the same made on first use: loading `node:module` is a third
 * of the CPU time of `--version`, and only a few `require`s of Node built-ins ever
 * call it (docs/performance.md).
 */
const EAGER_REQUIRE = [
  'import { createRequire as __deno_internal_createRequire } from "node:module";',
  "var __require = __deno_internal_createRequire(import.meta.url);",
].join("\n");
const LAZY_REQUIRE = "var __require = (id) => " +
  'process.getBuiltinModule("node:module").createRequire(import.meta.url)(id);';

/** The placeholder of `src/base/version.ts` that a bundle fills in. */
export const STAMP_MARKER = '"@rienda-build-stamp@"';

/** `<kind> <short commit> <YYYY-MM-DD>`: the commit of the root's HEAD, the build date (UTC). */
export async function buildStamp(kind: "binary" | "npm", now = new Date()): Promise<string> {
  const output = await new Deno.Command("git", {
    args: ["rev-parse", "HEAD"],
    cwd: ROOT,
    stdin: "null",
    stderr: "inherit",
  }).output();
  if (!output.success) throw new Error("git rev-parse HEAD failed: bundle from a git checkout");
  const commit = new TextDecoder().decode(output.stdout).trim().slice(0, 7);
  return `${kind} ${commit} ${now.toISOString().slice(0, 10)}`;
}

/** The permission set "rienda" of deno.json as `deno run` flags (a bundle runs without the config). */
export function permissionFlags(): string[] {
  const config: unknown = JSON.parse(Deno.readTextFileSync(join(ROOT, "deno.json")));
  const set = typeof config === "object" && config !== null && "permissions" in config &&
      typeof config.permissions === "object" && config.permissions !== null &&
      "rienda" in config.permissions
    ? config.permissions.rienda
    : undefined;
  if (typeof set !== "object" || set === null) throw new Error("deno.json: no permissions.rienda");
  const flags = Object.entries(set).flatMap(([name, value]): string[] => {
    if (value === true) return [`--allow-${name}`];
    if (Array.isArray(value) && value.every((item) => typeof item === "string")) {
      return [`--allow-${name}=${value.join(",")}`];
    }
    if (value === false) return [];
    throw new Error(`deno.json: permissions.rienda.${name}: expected true, false or a list`);
  });
  return [...flags, "--no-prompt"];
}

async function replaceOnce(files: readonly string[], from: string, to: (file: string) => string) {
  const hits: string[] = [];
  for (const file of files) {
    const text = await Deno.readTextFile(file);
    const count = text.split(from).length - 1;
    for (let i = 0; i < count; i++) hits.push(file);
  }
  if (hits.length !== 1) {
    throw new Error(`bundle: ${from} appears ${hits.length} times in the bundle (expected once)`);
  }
  const file = hits[0]!;
  const text = await Deno.readTextFile(file);
  await Deno.writeTextFile(file, text.replace(from, to(file)));
}

async function jsFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) files.push(...await jsFiles(path));
    else if (entry.name.endsWith(".js")) files.push(path);
  }
  return files;
}

/**
 * Bundles the CLI into `outdir` (emptied first) with `stamp` as its build
 * stamp; its entry point is `outdir/main.js`.
 */
export async function bundle(outdir: string, stamp: string): Promise<void> {
  await Deno.remove(outdir, { recursive: true }).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "bundle",
      "-q",
      "--platform",
      "deno",
      "--code-splitting",
      "--outdir",
      outdir,
      MAIN,
      ...LAZY_ENTRIES.map((entry) => entry.module),
    ],
    cwd: ROOT,
    stdin: "null",
  }).output();
  if (!output.success) {
    throw new Error(`deno bundle failed:\n${new TextDecoder().decode(output.stderr)}`);
  }
  const files = await jsFiles(outdir);
  for (const entry of LAZY_ENTRIES) {
    const target = join(outdir, bundledPath(entry.module));
    await replaceOnce(files, JSON.stringify(entry.spelled), (file) => {
      const path = relative(dirname(file), target).replaceAll("\\", "/");
      return JSON.stringify(path.startsWith(".") ? path : `./${path}`);
    });
  }
  await replaceOnce(files, STAMP_MARKER, () => JSON.stringify(stamp));
  await replaceOnce(files, EAGER_REQUIRE, () => LAZY_REQUIRE);
}

if (import.meta.main) {
  const [outdir, kind = "binary"] = Deno.args;
  if (outdir === undefined || (kind !== "binary" && kind !== "npm")) {
    throw new Error("usage: deno run -A scripts/bundle.ts OUTDIR [binary|npm]");
  }
  await bundle(outdir, await buildStamp(kind));
}
