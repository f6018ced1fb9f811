/**
 * `deno task compile`: builds `dist/rienda-<target>` for every release target
 * with `deno compile`, from the bundle of `scripts/bundle.ts` (stamped
 * `binary`, with the commit and today's date) and with the permission set of
 * `deno task dev` (deno.json "permissions.rienda", as flags). `deno compile`
 * downloads the Deno runtime of each target, so this needs network access
 * (run it on a release machine).
 *
 * Usage: `deno task compile [TARGET...]` (default: every target below).
 *
 * @module
 */

import { join } from "node:path";
import { buildStamp, bundle, bundledPath, permissionFlags, ROOT } from "./bundle.ts";
import { LAZY_ENTRIES } from "./lazy_entries.ts";

/** The release targets, as `deno compile --target` names them. */
export const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
] as const;

/** Where the bundle the binaries are compiled from is written, relative to the root. */
export const BUNDLE_DIR = "dist/bundle";

/** The binary of one target, relative to the root. */
export function binaryPath(target: string): string {
  return `dist/rienda-${target}${target.includes("windows") ? ".exe" : ""}`;
}

/**
 * The `deno compile` arguments of one target: the bundle's entry point, and its
 * lazily loaded entry points by name (`deno compile` follows neither a worker
 * nor a computed specifier).
 */
export function compileArgs(
  target: string,
  permissions: readonly string[],
  output: string = binaryPath(target),
): string[] {
  return [
    "compile",
    "-q",
    // The bundle is plain JavaScript: its sources were type-checked, and it needs no config.
    "--no-check",
    "--no-config",
    ...permissions,
    ...LAZY_ENTRIES.flatMap((entry) => ["--include", `${BUNDLE_DIR}/${bundledPath(entry.module)}`]),
    "--target",
    target,
    "--output",
    output,
    `${BUNDLE_DIR}/main.js`,
  ];
}

async function compile(target: string, permissions: readonly string[]): Promise<boolean> {
  const status = await new Deno.Command(Deno.execPath(), {
    args: compileArgs(target, permissions),
    cwd: ROOT,
    stdin: "null",
  }).spawn().status;
  return status.success;
}

if (import.meta.main) {
  const chosen = Deno.args.length > 0 ? Deno.args : [...TARGETS];
  const unknown = chosen.filter((target) => !(TARGETS as readonly string[]).includes(target));
  if (unknown.length > 0) {
    throw new Error(`unknown target ${unknown.join(", ")} (known: ${TARGETS.join(", ")})`);
  }
  await bundle(join(ROOT, BUNDLE_DIR), await buildStamp("binary"));
  const permissions = permissionFlags();
  let failed = 0;
  for (const target of chosen) {
    const ok = await compile(target, permissions);
    Deno.stderr.writeSync(new TextEncoder().encode(`${ok ? "built" : "FAILED"} ${target}\n`));
    if (!ok) failed++;
  }
  Deno.exit(failed === 0 ? 0 : 1);
}
