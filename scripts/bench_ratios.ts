/**
 * The speed goals of docs/performance.md as ratios to a floor, measured in
 * one interleaved run: every round runs each scenario once, in the same
 * order, so a change in the machine's load touches all of them alike. One
 * warm-up round, then BENCH_ROUNDS rounds (default 7); each figure is the
 * median over the rounds (wall time, peak RSS of the process, CPU time).
 *
 * - one-shot answer and `--version` against `deno run hello.ts`;
 * - one tool turn (the shell tool running `true`) against a bare Deno loop
 *   doing the same request, reading the SSE and spawning `sh -c true`
 *   (`bench_bare_loop.ts`): the cost of a turn is (run with 20 calls − run
 *   with 1 call) / 19, for both;
 * - one user-tool turn (QuickJS) against a shell turn, the same way;
 * - peak RSS of a run with 20 and with 200 user-tool calls;
 * - the one-shot answer and `--version` of the bundle the binaries and the
 *   npm package ship (`bundle.ts`), against the same hello.
 *
 * `deno run -A scripts/bench_ratios.ts` runs it alone; `scripts/bench.ts`
 * prints it first.
 *
 * @module
 */

import { join } from "node:path";
import { createTestEnv } from "../tests/harness/env.ts";
import { startFakeProvider, type Turn } from "../tests/harness/fake_provider.ts";
import { type CliArgs, cliArgs, runOnce, type Sample } from "./bench.ts";
import { writeExtensionAgents } from "./bench_extensions.ts";
import { bundleArgs } from "./bench_bundle.ts";
import { buildStamp, bundle } from "./bundle.ts";

const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? "7");
const BARE_LOOP = new URL("./bench_bare_loop.ts", import.meta.url).pathname;

/** Where a scenario runs: the fake provider's URL, hello.ts, and the deno arguments of each build. */
interface Place {
  readonly url: string;
  readonly helloPath: string;
  readonly bundle: CliArgs;
}

interface RatioScenario {
  readonly name: string;
  readonly turns: () => Turn[];
  /** The deno arguments of one run. */
  readonly deno: (place: Place) => CliArgs;
  readonly args: readonly string[];
}

const cli = (): CliArgs => cliArgs;
const bundled = (place: Place): CliArgs => place.bundle;
/** `count` turns of one call each (arguments differ, so the loop guard never stops them), then text. */
const calls = (
  count: number,
  name: string,
  args: (index: number) => Record<string, unknown>,
): Turn[] => [
  ...Array.from({ length: count }, (_, index) => ({
    toolCalls: [{ name, arguments: args(index) }],
  })),
  { text: "done" },
];
const shell = (count: number) => calls(count, "shell", (index) => ({ command: `true ${index}` }));
const user = (count: number) => calls(count, "trivial", (index) => ({ call: index }));

const SCENARIOS: readonly RatioScenario[] = [
  {
    name: "hello",
    turns: () => [],
    deno: ({ helloPath }) => () => ["run", "-q", helloPath],
    args: [],
  },
  { name: "--version", turns: () => [], deno: cli, args: ["--version"] },
  {
    name: "one-shot",
    turns: () => [{ text: "hello" }],
    deno: cli,
    args: ["run", "-a", "coder", "-p", "hi"],
  },
  {
    name: "one-shot, 1 hook",
    turns: () => [{ text: "hello" }],
    deno: cli,
    args: ["run", "-a", "guarded", "-p", "hi"],
  },
  ...[1, 20].map((count) => ({
    name: `bare loop ×${count}`,
    turns: () => shell(count),
    deno: ({ url }: Place) => () => ["run", "-A", BARE_LOOP, url],
    args: [],
  })),
  ...[1, 20].map((count) => ({
    name: `shell true ×${count}`,
    turns: () => shell(count),
    deno: cli,
    args: ["run", "-a", "coder", "-p", "go"],
  })),
  ...[1, 20, 200].map((count) => ({
    name: `user tool ×${count}`,
    turns: () => user(count),
    deno: cli,
    args: ["run", "-a", "plain", "-p", "go"],
  })),
  { name: "--version, bundle", turns: () => [], deno: bundled, args: ["--version"] },
  {
    name: "one-shot, bundle",
    turns: () => [{ text: "hello" }],
    deno: bundled,
    args: ["run", "-a", "coder", "-p", "hi"],
  },
];

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The 1-minute load average, or NaN where `/proc/loadavg` does not exist. */
export async function loadAverage(): Promise<number> {
  const text = await Deno.readTextFile("/proc/loadavg").catch(() => "");
  return Number(text.split(" ")[0] ?? NaN);
}

/** The figures of one scenario: medians over the rounds. */
interface Figures {
  readonly seconds: number;
  readonly mib: number;
  readonly cpu: number;
}

/** Runs every scenario once per round, interleaved, and returns each one's medians. */
async function measureInterleaved(): Promise<Map<string, Figures>> {
  await using provider = await startFakeProvider();
  await using env = await createTestEnv({ provider });
  await writeExtensionAgents(env);
  const helloPath = join(env.root, "hello.ts");
  await Deno.writeTextFile(helloPath, 'console.log("hello");\n');
  const outdir = join(env.root, "bundle");
  await bundle(outdir, await buildStamp("binary"));
  const place: Place = { url: provider.url, helloPath, bundle: bundleArgs(outdir) };
  const samples = new Map<string, Sample[]>();
  for (let round = 0; round <= ROUNDS; round++) {
    for (const scenario of SCENARIOS) {
      provider.push(...scenario.turns());
      const sample = await runOnce(env, scenario.args, scenario.deno(place));
      if (round > 0) samples.set(scenario.name, [...samples.get(scenario.name) ?? [], sample]);
    }
  }
  return new Map(
    [...samples].map(([name, list]) => [name, {
      seconds: median(list.map((sample) => sample.seconds)),
      mib: median(list.map((sample) => (sample.rssKib ?? NaN) / 1024)),
      cpu: median(list.map((sample) => sample.cpu ?? NaN)),
    }]),
  );
}

/** The result lines: each scenario's medians, then each goal's ratio and whether it is met. */
export async function measureRatios(): Promise<string[]> {
  const before = await loadAverage();
  const figures = await measureInterleaved();
  const after = await loadAverage();
  const get = (name: string): Figures => figures.get(name)!;
  const turnMs = (prefix: string) =>
    (get(`${prefix} ×20`).seconds - get(`${prefix} ×1`).seconds) / 19 * 1000;
  const bare = turnMs("bare loop");
  const shellTurn = turnMs("shell true");
  const userTurn = turnMs("user tool");
  const hello = get("hello");
  const oneShot = get("one-shot");
  const goal = (name: string, value: string, target: string, met: boolean) =>
    `  ${name.padEnd(40)} ${value.padEnd(8)} goal ${target.padEnd(9)} ${met ? "met" : "NOT MET"}`;
  return [
    `${ROUNDS} interleaved rounds (after a warm-up), medians; load average ${before.toFixed(2)} ` +
    `at the start, ${after.toFixed(2)} at the end`,
    ...[...figures].map(([name, { seconds, mib, cpu }]) =>
      `  ${name.padEnd(18)} ${seconds.toFixed(3)} s  ${mib.toFixed(1).padStart(5)} MiB  CPU ${
        cpu.toFixed(2)
      } s`
    ),
    `  one tool turn: bare loop ${bare.toFixed(1)} ms, shell ${shellTurn.toFixed(1)} ms, ` +
    `user tool ${userTurn.toFixed(1)} ms (user tool 20→200: ${
      ((get("user tool ×200").seconds - get("user tool ×20").seconds) / 180 * 1000).toFixed(1)
    } ms)`,
    goal(
      "one-shot wall / hello",
      `${(oneShot.seconds / hello.seconds).toFixed(2)}×`,
      "≤ 3×",
      oneShot.seconds <= 3 * hello.seconds,
    ),
    goal(
      "one-shot peak RSS / hello",
      `${(oneShot.mib / hello.mib).toFixed(2)}×`,
      "≤ 1.7×",
      oneShot.mib <= 1.7 * hello.mib,
    ),
    goal(
      "--version / hello",
      `${(get("--version").seconds / hello.seconds).toFixed(2)}×`,
      "≤ 2×",
      get("--version").seconds <= 2 * hello.seconds,
    ),
    goal(
      "bundle: one-shot wall / hello",
      `${(get("one-shot, bundle").seconds / hello.seconds).toFixed(2)}×`,
      "≤ 3×",
      get("one-shot, bundle").seconds <= 3 * hello.seconds,
    ),
    goal(
      "bundle: one-shot peak RSS / hello",
      `${(get("one-shot, bundle").mib / hello.mib).toFixed(2)}×`,
      "≤ 1.7×",
      get("one-shot, bundle").mib <= 1.7 * hello.mib,
    ),
    goal(
      "bundle: --version / hello",
      `${(get("--version, bundle").seconds / hello.seconds).toFixed(2)}×`,
      "≤ 2×",
      get("--version, bundle").seconds <= 2 * hello.seconds,
    ),
    goal(
      "shell turn / bare loop turn",
      `${(shellTurn / bare).toFixed(2)}×`,
      "≤ 1.5×",
      shellTurn <= 1.5 * bare,
    ),
    goal(
      "user-tool turn − shell turn",
      `${(userTurn - shellTurn).toFixed(1)} ms`,
      "≤ 1 ms",
      userTurn - shellTurn <= 1,
    ),
    goal(
      "RSS after 20 user-tool calls − one-shot",
      `${(get("user tool ×20").mib - oneShot.mib).toFixed(1)} MiB`,
      "≤ 20 MiB",
      get("user tool ×20").mib - oneShot.mib <= 20,
    ),
    goal(
      "RSS after 200 − after 20",
      `${(get("user tool ×200").mib - get("user tool ×20").mib).toFixed(1)} MiB`,
      "≤ 10 MiB",
      get("user tool ×200").mib - get("user tool ×20").mib <= 10,
    ),
    `  one hook declared adds ${
      ((get("one-shot, 1 hook").seconds - oneShot.seconds) * 1000).toFixed(0)
    } ms and ${(get("one-shot, 1 hook").mib - oneShot.mib).toFixed(1)} MiB to a one-shot`,
  ];
}

if (import.meta.main) {
  for (const line of await measureRatios()) {
    Deno.stdout.writeSync(new TextEncoder().encode(`${line}\n`));
  }
}
