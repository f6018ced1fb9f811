/**
 * Costs of the extension host, against spawning one `sh -c true` per call
 * (what command-hook peers pay): `deno bench -A src/extensions/host_bench.ts`.
 * The numbers are recorded in docs/extensions.md ("Runtime design").
 *
 * @module
 */

import { createHookRunner } from "../../tests/_testing/js_hook_runner.ts";
import { ExtensionHost } from "./host.ts";
import type { LoadedHook } from "./load_module.ts";
import { makeContext, makeSandbox, runTool } from "../../tests/_testing/extension_fixtures.ts";

const sandbox = await makeSandbox();
const context = makeContext(sandbox);
const host = new ExtensionHost();
await runTool(host, context, `return "warm";`);

const hooks: LoadedHook[] = Array.from({ length: 5 }, (_, i) => ({
  kind: "hook",
  name: `h${i}`,
  path: `/h/h${i}/index.js`,
  source: `module.exports = {
    beforeToolExecute: function (ctx, call) { return { arguments: call.arguments }; },
    afterToolExecute: function (ctx, call, result) { return { text: result.text + "." }; },
  };`,
  points: ["beforeToolExecute", "afterToolExecute"],
  failClosed: false,
}));
const runner = createHookRunner(hooks, { host, context });
const call = { id: "c1", name: "shell", arguments: { command: "ls" } };
const signal = new AbortController().signal;

Deno.bench("trivial tool in a fresh context", { group: "invocation", baseline: true }, async () => {
  await runTool(host, context, `return "ok";`);
});

Deno.bench("sh -c true (one process spawn)", { group: "invocation" }, async () => {
  await new Deno.Command("sh", { args: ["-c", "true"], stdout: "null", stderr: "null" }).output();
});

Deno.bench("100 ctx.env.get calls in one invocation", { group: "ctx" }, async () => {
  await runTool(host, context, `for (let i = 0; i < 100; i++) ctx.env.get("HOME"); return "ok";`);
});

Deno.bench("5 hooks around one tool call (10 invocations)", { group: "hooks" }, async () => {
  await runner.beforeToolExecute(call, signal);
  await runner.afterToolExecute(call, { text: "out", isError: false }, signal);
});

Deno.bench(
  "cold: new host, first trivial invocation",
  { group: "cold", n: 10, warmup: 1 },
  async () => {
    using cold = new ExtensionHost();
    await runTool(cold, context, `return "ok";`);
  },
);
