/**
 * Extension-host costs for `deno task bench`, measured in this
 * process against spawning one `sh -c true` per call (what command-hook
 * peers pay):
 *
 * - a trivial tool in a fresh context, median and p95 over 1000 invocations,
 *   back to back and spaced (a model turn between calls lets the worker
 *   prepare the next context);
 * - 5 hooks around one tool call (`beforeToolExecute` ×5, the tool,
 *   `afterToolExecute` ×5: 11 invocations);
 * - cold load: a fresh process from `new ExtensionHost()` to the first
 *   result (worker start, WASM compile, first context).
 *
 * `deno run -A scripts/bench_extensions.ts` runs it alone; `--cold` is the
 * child process of the cold measure. `scripts/bench.ts` also runs the CLI
 * with one user tool call, with and without 5 hooks around it
 * ({@link writeExtensionAgents}).
 *
 * @module
 */

import { join } from "node:path";
import { createHookRunner } from "../tests/_testing/js_hook_runner.ts";
import { ExtensionHost } from "../src/extensions/host.ts";
import type { LoadedHook, LoadedTool } from "../src/extensions/load_module.ts";
import type { ExtensionRunContext } from "../src/extensions/run_context.ts";
import { createUserTool } from "../src/extensions/user_tool.ts";
import type { TestEnv } from "../tests/harness/env.ts";
import { SecretSet } from "../src/secrets/secrets.ts";

const INVOCATIONS = Number(Deno.env.get("BENCH_INVOCATIONS") ?? "1000");
const SPAWNS = Number(Deno.env.get("BENCH_SPAWNS") ?? "200");
const CHAINS = Number(Deno.env.get("BENCH_CHAINS") ?? "100");
const COLD_RUNS = Number(Deno.env.get("BENCH_COLD_RUNS") ?? "5");

const TRIVIAL = `module.exports = {
  description: "Returns ok.",
  parameters: { type: "object" },
  execute: function () { return "ok"; },
};`;

/** The source of a hook that rewrites both tool points, as a chain member does. */
const CHAIN_HOOK = `module.exports = {
  beforeToolExecute: function (ctx, call) { return { arguments: call.arguments }; },
  afterToolExecute: function (ctx, call, result) { return { text: result.text + "." }; },
};`;

/**
 * Writes the agents of the CLI scenarios into a test home: `plain` (one user
 * tool, `trivial`), `hooked` (the same tool with 5 hooks around it) and
 * `guarded` (the built-in tools and one hook).
 */
export async function writeExtensionAgents(env: TestEnv): Promise<void> {
  await env.writeTool("trivial", TRIVIAL);
  const hooks = ["h1", "h2", "h3", "h4", "h5"];
  for (const name of hooks) await env.writeHook(name, CHAIN_HOOK);
  await env.writeAgent("plain", { description: "One user tool.", tools: ["trivial"] });
  await env.writeAgent("hooked", { description: "Hooked.", tools: ["trivial"], hooks });
  await env.writeAgent("guarded", { description: "One hook.", tools: ["shell"], hooks: ["h1"] });
}

/** A run context for in-process measures, rooted at `dir`. */
export function context(dir: string): ExtensionRunContext {
  return {
    workdir: dir,
    session: { id: "bench", agentId: "bench", modelId: "bench/bench" },
    agent: { name: "bench", frontmatter: {}, systemPrompt: "" },
    config: {},
    secrets: new SecretSet(),
    cacheDir: join(dir, "cache"),
    storeDir: join(dir, "store"),
    autoApprove: false,
    notice: () => {},
  };
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

/** Runs `once` `count` times in a row (`gapMs` apart) and returns each duration in ms. */
export async function timeEach(
  count: number,
  once: () => Promise<unknown>,
  gapMs = 0,
): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
    const started = performance.now();
    await once();
    samples.push(performance.now() - started);
  }
  return samples;
}

/** One line: name, median and p95 in ms. */
export function line(name: string, samples: readonly number[]): string {
  const median = quantile(samples, 0.5);
  return `${name.padEnd(46)} median ${median.toFixed(3)} ms  p95 ${
    quantile(samples, 0.95).toFixed(3)
  } ms  (n=${samples.length})`;
}

/** The cold measure, in this (fresh) process: new host → first trivial result, in ms. */
async function coldOnce(): Promise<number> {
  const dir = await Deno.makeTempDir({ prefix: "rienda-bench-" });
  const started = performance.now();
  using host = new ExtensionHost();
  const result = await host.call({
    source: TRIVIAL,
    entry: "execute",
    args: [{}],
    context: context(dir),
    output: () => {},
    signal: new AbortController().signal,
  });
  const elapsed = performance.now() - started;
  if (result.kind !== "value") throw new Error(`cold call failed: ${JSON.stringify(result)}`);
  await Deno.remove(dir, { recursive: true });
  return elapsed;
}

async function coldSamples(): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--no-prompt", new URL(import.meta.url).pathname, "--cold"],
      stdout: "piped",
      stderr: "inherit",
    }).output();
    samples.push(Number(new TextDecoder().decode(output.stdout).trim()));
  }
  return samples;
}

/** Measures everything and returns the report lines. */
export async function measureExtensions(): Promise<string[]> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "rienda-bench-" }));
  using host = new ExtensionHost();
  const ctx = context(dir);
  const signal = new AbortController().signal;
  const trivial: LoadedTool = {
    kind: "tool",
    name: "trivial",
    path: join(dir, "index.js"),
    source: TRIVIAL,
    description: "Returns ok.",
    parameters: { type: "object" },
  };
  const tool = createUserTool(trivial, { host, context: ctx });
  const call = () =>
    tool.execute({}, { callId: "c", workdir: dir, signal, output: () => {} }).then((result) => {
      if (result.text !== "ok") throw new Error(`unexpected result ${JSON.stringify(result)}`);
    });
  await timeEach(50, call); // warm-up: worker started, JIT warm
  const backToBack = await timeEach(INVOCATIONS, call);
  const spaced = await timeEach(Math.min(INVOCATIONS, 300), call, 3);
  const spawn = () =>
    new Deno.Command("sh", { args: ["-c", "true"], stdout: "null", stderr: "null" }).output();
  await timeEach(10, spawn);
  const spawns = await timeEach(SPAWNS, spawn);

  const hooks: LoadedHook[] = Array.from({ length: 5 }, (_, i) => ({
    kind: "hook",
    name: `h${i}`,
    path: join(dir, `h${i}`, "index.js"),
    source: CHAIN_HOOK,
    points: ["beforeToolExecute", "afterToolExecute"],
    failClosed: false,
  }));
  const payload = { id: "c", name: "trivial", arguments: {} };
  const chainOf = (runner: ReturnType<typeof createHookRunner>) => async () => {
    const gate = await runner.beforeToolExecute(payload, signal);
    if (gate.kind !== "done" || !gate.value.allow) throw new Error("refused");
    const result = await tool.execute({}, { callId: "c", workdir: dir, signal, output: () => {} });
    const after = await runner.afterToolExecute(payload, result, signal);
    if (after.kind !== "done" || after.value.text !== "ok.....") {
      throw new Error(`unexpected chain result ${JSON.stringify(after)}`);
    }
  };
  const chain = chainOf(createHookRunner(hooks, { host, context: ctx }));
  // The same hooks as guards: the fail-closed checks must cost nothing measurable.
  const guarded = chainOf(
    createHookRunner(hooks.map((hook) => ({ ...hook, failClosed: true })), { host, context: ctx }),
  );
  await timeEach(5, chain);
  await timeEach(5, guarded);
  const chains: number[] = [];
  const guardedChains: number[] = [];
  for (let i = 0; i < CHAINS; i++) {
    chains.push(...await timeEach(1, chain, 3));
    guardedChains.push(...await timeEach(1, guarded, 3));
  }
  const cold = await coldSamples();
  await Deno.remove(dir, { recursive: true });

  const invocation = quantile(backToBack, 0.5);
  const spacedMedian = quantile(spaced, 0.5);
  const spawnMedian = quantile(spawns, 0.5);
  return [
    line("trivial tool, fresh context, back to back", backToBack),
    line("trivial tool, fresh context, 3 ms apart", spaced),
    line("sh -c true, one process spawn", spawns),
    `${"invocation vs spawn".padEnd(46)} ${(spawnMedian / invocation).toFixed(1)}× cheaper ` +
    `back to back, ${
      (spawnMedian / spacedMedian).toFixed(1)
    }× spaced (target ≤ 0.5 ms back to back)`,
    line("5 hooks around one tool call (11 invocations)", chains),
    line("the same, the 5 hooks fail-closed", guardedChains),
    `${"5 hook-spawns around one call (10 × sh -c true)".padEnd(46)} ~${
      (10 * spawnMedian).toFixed(3)
    } ms  (for comparison)`,
    line("cold: new host → first result (fresh process)", cold),
  ];
}

if (import.meta.main) {
  if (Deno.args[0] === "--cold") {
    Deno.stdout.writeSync(new TextEncoder().encode(`${await coldOnce()}\n`));
  } else {
    for (const text of await measureExtensions()) {
      Deno.stdout.writeSync(new TextEncoder().encode(`${text}\n`));
    }
  }
}
