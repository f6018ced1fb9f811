/**
 * `deno task npm-pack`: writes `dist/npm/rienda-<version>.tgz`, the npm
 * package `rienda`: the bundle of `scripts/bundle.ts` (stamped `npm`), the
 * launcher `npm/bin/rienda.cjs` as its `rienda` command, and `npm/README.md`.
 * It depends on the `deno` npm package for its runtime, so `npm install -g
 * rienda` needs node alone; the launcher runs the bundle with the permission
 * set "rienda" of deno.json.
 *
 * @module
 */

import { join } from "node:path";
import { VERSION } from "../src/base/version.ts";
import { buildStamp, bundle, permissionFlags, ROOT } from "./bundle.ts";

/** The package's name on npm. */
export const PACKAGE_NAME = "rienda";

/** The `deno` npm package the launcher runs on: the Deno rienda is developed and tested with. */
export const DENO_VERSION = "2.9.6";

/** Where the package is assembled and the tarball written, relative to the root. */
export const NPM_DIR = "dist/npm";

/** The tarball's path, relative to the root. */
export const TARBALL = `${NPM_DIR}/${PACKAGE_NAME}-${VERSION}.tgz`;

/** The package's `package.json`. */
export function packageJson(): Record<string, unknown> {
  return {
    name: PACKAGE_NAME,
    version: VERSION,
    description:
      "Runs AI agents defined as Markdown files, extended with sandboxed JavaScript tools",
    keywords: ["ai", "agent", "cli", "llm", "mcp"],
    bin: { rienda: "bin/rienda.cjs" },
    files: ["bin/", "bundle/", "README.md"],
    engines: { node: ">=18" },
    dependencies: { deno: DENO_VERSION },
  };
}

async function pack(): Promise<string> {
  const packageDir = join(ROOT, NPM_DIR, "package");
  await bundle(join(packageDir, "bundle"), await buildStamp("npm"));
  await Deno.mkdir(join(packageDir, "bin"), { recursive: true });
  await Deno.copyFile(join(ROOT, "npm/bin/rienda.cjs"), join(packageDir, "bin/rienda.cjs"));
  await Deno.chmod(join(packageDir, "bin/rienda.cjs"), 0o755);
  await Deno.writeTextFile(
    join(packageDir, "bin/launch.json"),
    `${JSON.stringify({ permissions: permissionFlags() }, null, 2)}\n`,
  );
  await Deno.copyFile(join(ROOT, "npm/README.md"), join(packageDir, "README.md"));
  await Deno.writeTextFile(
    join(packageDir, "package.json"),
    `${JSON.stringify(packageJson(), null, 2)}\n`,
  );
  const output = await new Deno.Command("npm", {
    args: ["pack", "--silent", "--pack-destination", join(ROOT, NPM_DIR)],
    cwd: packageDir,
    stdin: "null",
    stdout: "null",
  }).output();
  if (!output.success) {
    throw new Error(`npm pack failed:\n${new TextDecoder().decode(output.stderr)}`);
  }
  return join(ROOT, TARBALL);
}

if (import.meta.main) {
  const tarball = await pack();
  Deno.stdout.writeSync(new TextEncoder().encode(`${tarball}\n`));
}
