/**
 * What a capability check costs: one tool invocation making 20 `ctx.file.read`
 * and 20 `ctx.env.get` calls, with full access (undeclared) and with a
 * declared grant, interleaved in one host (`deno task bench`, or
 * `deno run -A scripts/bench_capabilities.ts` alone).
 *
 * @module
 */

import { ExtensionHost } from "../src/extensions/host.ts";
import { grantOf } from "../src/extensions/capabilities.ts";
import { parseCapabilitySet } from "../src/sandbox/capability_set.ts";
import { makeContext, makeSandbox } from "../tests/_testing/extension_fixtures.ts";

const RUNS = 300;
const WARM_UP = 20;

const SOURCE = `module.exports = { execute: function (ctx) {
  for (var i = 0; i < 20; i++) { ctx.file.read("src/a/notes.txt"); ctx.env.get("HOME"); }
  return "ok";
} };`;

/** Median and p95 of one invocation with full access and with a declared grant. */
export async function measureCapabilities(): Promise<string[]> {
  const sandbox = await makeSandbox();
  await Deno.mkdir(`${sandbox.workdir}/src/a`, { recursive: true });
  await Deno.writeTextFile(`${sandbox.workdir}/src/a/notes.txt`, "notes");
  const context = makeContext(sandbox);
  const extension = { kind: "tool" as const, name: "bench", path: "/bench/index.js" };
  const declared = parseCapabilitySet({ file: { read: ["."] }, env: ["HOME"] }).set;
  const grants = {
    "full access": grantOf(extension, undefined),
    "declared grant": grantOf({ ...extension, capabilities: declared }, undefined),
  };
  using host = new ExtensionHost();
  const signal = new AbortController().signal;
  const lines: string[] = [];
  const entries = Object.entries(grants);
  const times = entries.map((): number[] => []);
  // Interleaved, so both see the same load on a shared machine.
  for (let i = 0; i < RUNS + WARM_UP; i++) {
    for (const [index, [, grant]] of entries.entries()) {
      const started = performance.now();
      await host.call({
        source: SOURCE,
        entry: "execute",
        args: [{}],
        context,
        grant,
        output: () => {},
        signal,
      });
      if (i >= WARM_UP) times[index]?.push(performance.now() - started);
    }
  }
  for (const [index, [label]] of entries.entries()) {
    const sorted = (times[index] ?? []).sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
    const p95 = sorted[Math.floor(sorted.length * 0.95)] ?? 0;
    lines.push(
      `${label}: 40 ctx calls per invocation, median ${median.toFixed(2)} ms, p95 ${
        p95.toFixed(2)
      } ms`,
    );
  }
  await Deno.remove(sandbox.root, { recursive: true });
  return lines;
}

if (import.meta.main) {
  for (const line of await measureCapabilities()) {
    Deno.stdout.writeSync(new TextEncoder().encode(`${line}\n`));
  }
}
