/**
 * `deno task npm-pack` and the package it writes, installed as a person
 * installs it (`npm install -g`, into a temporary prefix) and run from a
 * folder with no checkout: the smoke test of a release binary
 * (scripts/smoke.ts), and `rienda upgrade` naming npm.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { smoke } from "../scripts/smoke.ts";
import { DENO_VERSION, PACKAGE_NAME, TARBALL } from "../scripts/npm_pack.ts";
import { createTestEnv } from "./harness/env.ts";
import { isRecord } from "./harness/json.ts";
import { CHECKOUT_DIR } from "./harness/rienda.ts";

Deno.test("the npm package installs with npm install -g and runs rienda with no checkout", async (t) => {
  await using env = await createTestEnv();
  const packed = await env.exec(Deno.execPath(), ["task", "-q", "npm-pack"], { cwd: CHECKOUT_DIR });
  assert.equal(packed.code, 0, packed.stderr);
  const tarball = join(CHECKOUT_DIR, TARBALL);
  assert.equal(packed.stdout, `${tarball}\n`);

  await t.step("holds the launcher, the bundle and the README, and is small", async () => {
    const listing = await env.exec("tar", ["tzf", tarball]);
    const files = listing.stdout.trim().split("\n");
    const tops = new Set(files.map((file) => file.split("/").slice(0, 2).join("/")));
    assert.deepEqual([...tops].sort(), [
      "package/README.md",
      "package/bin",
      "package/bundle",
      "package/package.json",
    ]);
    assert.ok(files.includes("package/bundle/main.js") && files.includes("package/bin/rienda.cjs"));
    assert.ok((await Deno.stat(tarball)).size < 2 * 1024 * 1024, "over 2 MiB");
    const manifest: unknown = JSON.parse(
      (await env.exec("tar", ["xzOf", tarball, "package/package.json"])).stdout,
    );
    assert.ok(isRecord(manifest));
    assert.equal(manifest.name, PACKAGE_NAME);
    assert.deepEqual(manifest.bin, { rienda: "bin/rienda.cjs" });
    assert.deepEqual(manifest.dependencies, { deno: DENO_VERSION });
  });

  const prefix = `${env.root}/npm-global`;
  const installed = await env.exec("npm", [
    "install",
    "-g",
    "--prefix",
    prefix,
    "--prefer-offline",
    "--no-audit",
    "--no-fund",
    tarball,
  ], { env: { npm_config_cache: `${Deno.env.get("HOME")}/.npm` }, timeoutMs: 300_000 });
  assert.equal(installed.code, 0, installed.stderr);
  const rienda = `${prefix}/bin/rienda`;

  await t.step(
    "--version, tools test, a one-shot run and an MCP call pass the smoke test",
    async () => {
      assert.deepEqual(await smoke(rienda, { source: false }), []);
    },
  );

  await t.step("rienda upgrade says how the npm package upgrades", async () => {
    const result = await env.exec(rienda, ["upgrade"]);
    assert.equal(result.code, 1);
    assert.equal(
      result.stderr,
      "rienda: this rienda is the npm package rienda: upgrade it with npm install -g rienda@latest\n",
    );
  });
});
