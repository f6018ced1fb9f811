/**
 * The cost of one hook per tool call, spawn to verdict, for `deno task
 * bench`: a `beforeToolExecute` chain of one hook around a call, run in this
 * process as a run runs it (`hooks/hook_chain.ts`), for
 *
 * - a trivial JavaScript hook (no opinion, in a fresh QuickJS context);
 * - an `sh` command hook that reads its standard input and exits 0;
 * - a `node` command hook that does the same.
 *
 * The three are interleaved (every round runs each once, in the same order),
 * so a change in the machine's load touches all of them alike; 5 warm-up
 * rounds, then BENCH_HOOK_ROUNDS rounds (default 100); median and p95.
 *
 * `deno run -A scripts/bench_command_hooks.ts` runs it alone;
 * `scripts/bench.ts` prints it with the extension host's figures.
 *
 * @module
 */

import { join } from "node:path";
import type { CommandHookEntry } from "../src/config/hook_entries.ts";
import { ExtensionHost } from "../src/extensions/host.ts";
import { createScriptHook } from "../src/extensions/script_hook.ts";
import { createCommandHook } from "../src/hooks/command_hook.ts";
import { createHookChain } from "../src/hooks/hook_chain.ts";
import type { RunnableHook } from "../src/hooks/runnable_hook.ts";
import { context, line, timeEach } from "./bench_extensions.ts";

const ROUNDS = Number(Deno.env.get("BENCH_HOOK_ROUNDS") ?? "100");

const JS_HOOK = `module.exports = {
  beforeToolExecute: function (ctx, call) { return undefined; },
};`;

/** A command hook entry of `argv` at `beforeToolExecute`, for every tool. */
const commandEntry = (argv: [string, ...string[]]): CommandHookEntry => ({
  kind: "command",
  index: 0,
  priority: 0,
  argv,
  points: ["beforeToolExecute"],
  timeoutMs: 10_000,
});

/** Measures the three hooks and returns the report lines. */
export async function measureCommandHooks(): Promise<string[]> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "rienda-bench-" }));
  using host = new ExtensionHost();
  const ctx = context(dir);
  const session = { id: "bench", agentId: "bench", modelId: "bench/bench" };
  const signal = new AbortController().signal;
  const payload = { id: "c", name: "shell", arguments: { command: "true" } };
  const js = createScriptHook({
    kind: "hook",
    name: "trivial",
    path: join(dir, "trivial", "index.js"),
    source: JS_HOOK,
    points: ["beforeToolExecute"],
    failClosed: false,
  }, { host, context: ctx });
  const sh = createCommandHook(commandEntry(["sh", "-c", "cat >/dev/null"]), {
    workdir: dir,
    session,
  });
  const node = createCommandHook(
    commandEntry(["node", "-e", "process.stdin.on('data', () => {});"]),
    { workdir: dir, session },
  );
  const gate = (hook: RunnableHook) => {
    const chain = createHookChain([hook], { notice: () => {} });
    return async () => {
      const verdict = await chain.beforeToolExecute(payload, signal);
      if (verdict.kind !== "done" || !verdict.value.allow) {
        throw new Error(`${hook.label}: unexpected verdict ${JSON.stringify(verdict)}`);
      }
    };
  };
  const scenarios = [
    { name: "trivial JavaScript hook", once: gate(js), samples: [] as number[] },
    { name: "sh command hook (cat >/dev/null)", once: gate(sh), samples: [] as number[] },
    { name: "node command hook (node -e, reads stdin)", once: gate(node), samples: [] as number[] },
  ];
  for (let round = 0; round < 5 + ROUNDS; round++) {
    for (const scenario of scenarios) {
      const [sample] = await timeEach(1, scenario.once);
      if (round >= 5 && sample !== undefined) scenario.samples.push(sample);
    }
  }
  await Deno.remove(dir, { recursive: true });
  return scenarios.map((scenario) => line(scenario.name, scenario.samples));
}

if (import.meta.main) {
  for (const text of await measureCommandHooks()) {
    Deno.stdout.writeSync(new TextEncoder().encode(`${text}\n`));
  }
}
