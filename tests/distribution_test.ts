/**
 * Ready to compile by construction (docs/distribution.md): every module the
 * CLI loads is reachable from the bundle's entry points, `deno compile` is
 * given each lazily loaded one, a fresh clone runs with no step before it,
 * and the workflow files say what the release does.
 */

import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { parse } from "yaml";
import { bundledPath, MAIN } from "../scripts/bundle.ts";
import { LAZY_ENTRIES } from "../scripts/lazy_entries.ts";
import { BUNDLE_DIR, compileArgs, TARGETS } from "../scripts/compile.ts";
import { createTestEnv } from "./harness/env.ts";
import { CHECKOUT_DIR } from "./harness/rienda.ts";
import { isRecord } from "./harness/json.ts";

/** Modules under src/ that the CLI never loads: generators run by hand. */
const NOT_LOADED = [
  "src/config/generate_config_validator.ts",
  "src/tools/generate_builtin_validators.ts",
];

async function runtimeModules(dir = join(CHECKOUT_DIR, "src")): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) {
      if (entry.name !== "testdata") found.push(...await runtimeModules(path));
    } else if (/\.(ts|js)$/.test(entry.name) && !/(_test|_bench|\.d)\.ts$/.test(entry.name)) {
      found.push(relative(CHECKOUT_DIR, path));
    }
  }
  return found.filter((module) => !NOT_LOADED.includes(module)).sort();
}

/**
 * The modules of src/ that `deno info` reaches from `roots`. Type imports count: a
 * module imported only for its types has no code to load, and a module loaded by a
 * computed specifier is caught by the next test even if a type import reaches it.
 */
async function codeGraph(roots: readonly string[]): Promise<Set<string>> {
  const reached = new Set<string>();
  for (const root of roots) {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", root],
      cwd: CHECKOUT_DIR,
      stdin: "null",
      stderr: "inherit",
    }).output();
    const info: unknown = JSON.parse(new TextDecoder().decode(output.stdout));
    const modules = isRecord(info) && Array.isArray(info.modules) ? info.modules : [];
    const edges = new Map<string, string[]>();
    for (const module of modules) {
      if (!isRecord(module) || typeof module.specifier !== "string") continue;
      const deps = Array.isArray(module.dependencies) ? module.dependencies : [];
      edges.set(
        module.specifier,
        deps.flatMap((dep) =>
          isRecord(dep)
            ? [dep.code, dep.type].flatMap((edge) =>
              isRecord(edge) && typeof edge.specifier === "string" ? [edge.specifier] : []
            )
            : []
        ),
      );
    }
    const start = new URL(root, `file://${CHECKOUT_DIR}/`).href;
    const stack = [start];
    while (stack.length > 0) {
      const specifier = stack.pop()!;
      if (!specifier.startsWith(`file://${CHECKOUT_DIR}/src/`)) continue;
      const path = relative(CHECKOUT_DIR, decodeURIComponent(new URL(specifier).pathname));
      if (reached.has(path)) continue;
      reached.add(path);
      stack.push(...(edges.get(specifier) ?? []));
    }
  }
  return reached;
}

Deno.test("every module of src/ is reachable from src/main.ts and the lazy entry points", async () => {
  const reached = await codeGraph([MAIN, ...LAZY_ENTRIES.map((entry) => entry.module)]);
  const unreached = (await runtimeModules()).filter((module) => !reached.has(module));
  assert.deepEqual(
    unreached,
    [],
    "a module no bundle entry reaches: load it with a literal import, or add it to LAZY_ENTRIES",
  );
});

Deno.test("every computed specifier and worker URL of src/ is a lazy entry point, spelled as the code spells it", async () => {
  const found: string[] = [];
  for (const module of await runtimeModules()) {
    const text = await Deno.readTextFile(join(CHECKOUT_DIR, module));
    // A module's URL (not a folder's, such as the checkout's `../..`).
    for (const match of text.matchAll(/new URL\(\s*"([^"]+\.[jt]s)",\s*import\.meta\.url\s*\)/g)) {
      found.push(`${module} → ${match[1]}`);
    }
    for (const match of text.matchAll(/\bimport\(\s*([A-Z_][A-Z0-9_]*)\s*\)/g)) {
      const constant = text.match(new RegExp(`const ${match[1]} = "([^"]+)"`));
      found.push(`${module} → ${constant?.[1] ?? `the value of ${match[1]}`}`);
    }
  }
  assert.deepEqual(
    found.sort(),
    LAZY_ENTRIES.map((entry) => `${entry.loadedBy} → ${entry.spelled}`).sort(),
  );
  for (const entry of LAZY_ENTRIES) {
    assert.equal(
      join(entry.loadedBy, "..", entry.spelled),
      entry.module,
      `${entry.loadedBy}: ${entry.spelled}`,
    );
  }
});

Deno.test("every lazily imported module is typed by its loader as typeof import() of its own specifier", async () => {
  for (const entry of LAZY_ENTRIES) {
    const text = await Deno.readTextFile(join(CHECKOUT_DIR, entry.loadedBy));
    const typed = [...text.matchAll(/typeof import\(\s*"([^"]+)"\s*\)/g)].map((match) => match[1]);
    // A worker has no module type; a module's loader names its exports' type, not a copy.
    assert.deepEqual(typed, entry.kind === "module" ? [entry.spelled] : [], entry.loadedBy);
  }
});

Deno.test("deno compile gets the bundle, each lazy entry point, the permission set, and five targets", () => {
  assert.deepEqual([...TARGETS], [
    "x86_64-unknown-linux-gnu",
    "aarch64-unknown-linux-gnu",
    "x86_64-apple-darwin",
    "aarch64-apple-darwin",
    "x86_64-pc-windows-msvc",
  ]);
  const permissions = ["--allow-read", "--allow-run=sh", "--no-prompt"];
  const args = compileArgs("x86_64-pc-windows-msvc", permissions);
  assert.equal(args.at(-1), `${BUNDLE_DIR}/main.js`);
  assert.ok(args.includes("--no-config") && args.includes("--no-check"), args.join(" "));
  for (const flag of permissions) assert.ok(args.includes(flag), flag);
  const includes = args.flatMap((arg, index) => args[index - 1] === "--include" ? [arg] : []);
  assert.deepEqual(
    includes,
    LAZY_ENTRIES.map((entry) => `${BUNDLE_DIR}/${bundledPath(entry.module)}`),
  );
  assert.equal(args[args.indexOf("--output") + 1], "dist/rienda-x86_64-pc-windows-msvc.exe");
  assert.equal(args[args.indexOf("--target") + 1], "x86_64-pc-windows-msvc");
});

Deno.test("deno task compile bundles, then deno compile builds a binary or stops at the runtime download", async () => {
  await using env = await createTestEnv();
  const target = Deno.build.target;
  const result = await env.exec(Deno.execPath(), [
    "task",
    "-q",
    "--cwd",
    CHECKOUT_DIR,
    "compile",
    target,
  ], {
    cwd: CHECKOUT_DIR,
  });
  for (const entry of LAZY_ENTRIES) {
    await Deno.stat(join(CHECKOUT_DIR, BUNDLE_DIR, bundledPath(entry.module)));
  }
  if (result.code === 0) {
    // A machine that can download the runtime: the binary runs.
    const version = await env.exec(join(CHECKOUT_DIR, `dist/rienda-${target}`), ["--version"]);
    assert.match(version.stdout, /^rienda \S+ \([0-9a-f]{7}, \d{4}-\d{2}-\d{2}\)\n$/);
  } else {
    assert.match(result.stderr, /denort-.*\.zip|Setting up base binary/, result.stderr);
    assert.match(result.stderr, /FAILED /);
  }
});

Deno.test("a fresh clone runs rienda with no step before it: deno run -P=rienda src/main.ts and deno task dev", async () => {
  await using env = await createTestEnv();
  const clone = `${env.root}/clone`;
  const cloned = await env.exec("git", ["clone", "-q", "--no-hardlinks", CHECKOUT_DIR, clone]);
  assert.equal(cloned.code, 0, cloned.stderr);
  // The working tree as it would be committed: tracked and new files, nothing ignored.
  const listed = await env.exec("git", [
    "-C",
    CHECKOUT_DIR,
    "ls-files",
    "-co",
    "--exclude-standard",
  ]);
  for (const path of listed.stdout.split("\n").filter((line) => line !== "")) {
    const source = join(CHECKOUT_DIR, path);
    const stat = await Deno.lstat(source).catch(() => null);
    if (stat === null || !stat.isFile) continue;
    await Deno.mkdir(join(clone, path, ".."), { recursive: true });
    await Deno.copyFile(source, join(clone, path));
  }
  await env.writeTool(
    "word-count",
    `module.exports = {
  description: "Counts words.",
  parameters: { type: "object", properties: { text: { type: "string" } } },
  execute: function (ctx, args) { return String(args.text.split(" ").length); },
};`,
  );
  const args = ["tools", "test", "word-count", "--args", '{"text": "a b c"}'];
  const run = await env.exec(Deno.execPath(), ["run", "-q", "-P=rienda", "src/main.ts", ...args], {
    cwd: clone,
  });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout, "3\n");
  const dev = await env.exec(Deno.execPath(), ["task", "-q", "dev", "--version"], { cwd: clone });
  assert.equal(dev.code, 0, dev.stderr);
  const head = await env.exec("git", ["-C", clone, "rev-parse", "HEAD"]);
  assert.equal(dev.stdout, `rienda 0.1.0 (${head.stdout.slice(0, 7)})\n`);
  for (const leftover of ["vendor", "node_modules", "dist"]) {
    assert.equal(await Deno.stat(join(clone, leftover)).catch(() => null), null, leftover);
  }
});

Deno.test("the workflows parse: CI runs .ci/run; a v* tag builds, smoke-tests and publishes the five targets", async () => {
  const ci: unknown = parse(await Deno.readTextFile(`${CHECKOUT_DIR}/.github/workflows/ci.yml`));
  assert.ok(isRecord(ci) && isRecord(ci.on) && "push" in ci.on && "pull_request" in ci.on);
  assert.match(JSON.stringify(ci.jobs), /"run":"bash \.ci\/run"/);

  const text = await Deno.readTextFile(`${CHECKOUT_DIR}/.github/workflows/release.yml`);
  const release: unknown = parse(text);
  assert.ok(isRecord(release) && isRecord(release.on) && isRecord(release.on.push));
  assert.deepEqual(release.on.push.tags, ["v*"]);
  assert.ok(isRecord(release.jobs));
  const smoke = release.jobs.smoke;
  assert.ok(isRecord(smoke) && isRecord(smoke.strategy) && isRecord(smoke.strategy.matrix));
  const include = smoke.strategy.matrix.include;
  assert.ok(Array.isArray(include));
  assert.deepEqual(include.map((row) => isRecord(row) ? row.target : null), [...TARGETS]);
  for (const row of include) {
    assert.ok(isRecord(row));
    assert.equal(
      row.binary,
      `rienda-${row.target}${String(row.target).includes("windows") ? ".exe" : ""}`,
    );
  }
  const steps = JSON.stringify(release.jobs);
  for (
    const needed of [
      "deno task compile",
      "deno task -q npm-pack",
      "scripts/smoke.ts",
      "SHA256SUMS",
      "install.sh",
      "gh release create",
    ]
  ) {
    assert.ok(steps.includes(needed), `release.yml never mentions ${needed}`);
  }
  assert.ok(isRecord(release.jobs.publish) && release.jobs.publish.needs === "smoke");
});
