import assert from "node:assert/strict";
import { createTestEnv, type TestEnv } from "./harness/env.ts";

const EXTENDING_MD = new URL("../docs/extending.md", import.meta.url);

/** The `js` code blocks of docs/extending.md that start with `// @ts-check`. */
async function checkedExamples(): Promise<string[]> {
  const text = await Deno.readTextFile(EXTENDING_MD);
  return [...text.matchAll(/```js\n(\/\/ @ts-check\n[\s\S]*?)```/g)].map((match) => match[1] ?? "");
}

/** Type-checks `files` (paths under the home) with `deno check` against the home's rienda.d.ts. */
async function denoCheck(env: TestEnv, files: readonly string[]) {
  // What jsconfig.json gives an editor: the ES2023 library and rienda.d.ts, no DOM or Deno.
  await Deno.writeTextFile(
    `${env.home}/deno.json`,
    JSON.stringify({ compilerOptions: { lib: ["es2023"], types: ["./rienda.d.ts"] } }),
  );
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["check", "-q", "--no-lock", ...files],
    cwd: env.home,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: output.code, text: new TextDecoder().decode(output.stderr) };
}

Deno.test("rienda init writes rienda.d.ts and jsconfig.json; rienda types prints the same types", async () => {
  await using env = await createTestEnv();
  const init = await env.run(["init"]);
  assert.equal(init.code, 0, init.stderr);
  assert.match(init.stdout, /created {2}.*\/rienda\.d\.ts\n/);
  const types = await env.run(["types"]);
  assert.equal(types.code, 0, types.stderr);
  assert.equal(types.stdout, await Deno.readTextFile(`${env.home}/rienda.d.ts`));
  assert.match(types.stdout, /declare namespace Rienda/);
  const jsconfig = JSON.parse(await Deno.readTextFile(`${env.home}/jsconfig.json`));
  assert.deepEqual(jsconfig.include, ["rienda.d.ts", "tools/*/index.js", "hooks/*/index.js"]);
  assert.deepEqual(jsconfig.compilerOptions.lib, ["es2023"]);
  const tool = await Deno.readTextFile(`${env.home}/tools/word-count/index.js`);
  assert.match(tool, /^\/\/ @ts-check\n/);
  assert.match(tool, /docs\/extending\.md/);
  // The generated extensions type-check, and a mistake in one is caught.
  const clean = await denoCheck(env, ["tools/word-count/index.js", "hooks/guard/index.js"]);
  assert.equal(clean.code, 0, clean.text);
  await Deno.writeTextFile(
    `${env.home}/tools/word-count/index.js`,
    tool.replace("ctx.file.read(", "ctx.file.reed("),
  );
  const broken = await denoCheck(env, ["tools/word-count/index.js"]);
  assert.equal(broken.code, 1);
  assert.match(broken.text, /Property 'reed' does not exist on type 'FileApi'/);
});

Deno.test("every checked example of docs/extending.md type-checks against rienda.d.ts", async () => {
  await using env = await createTestEnv();
  const types = await env.run(["types"]);
  await Deno.writeTextFile(`${env.home}/rienda.d.ts`, types.stdout);
  const examples = await checkedExamples();
  assert.ok(examples.length >= 8, `only ${examples.length} checked examples`);
  const files = await Promise.all(examples.map(async (source, index) => {
    const path = `examples/${index}/index.js`;
    await Deno.mkdir(`${env.home}/examples/${index}`, { recursive: true });
    await Deno.writeTextFile(`${env.home}/${path}`, source);
    return path;
  }));
  const checked = await denoCheck(env, files);
  assert.equal(checked.code, 0, checked.text);
});
