/**
 * `deno task bench`: runs the CLI from source (the `dev` task's `deno run`
 * line, so the binary's permission set) against the fake provider and prints
 * first the goals as ratios to a floor (`bench_ratios.ts`), then
 * the median wall time and peak RSS of each scenario, then the in-process
 * costs of the file tools (`bench_coding_tools.ts`), the latency an editor
 * sees (`bench_acp.ts`), of the extension host
 * and of masking secrets (`bench_masking.ts`).
 *
 * Peak RSS (and the CPU time a caller may ask for) comes from `/usr/bin/time`
 * when it exists (else "n/a").
 *
 * @module
 */

import { startFakeProvider, type Turn } from "../tests/harness/fake_provider.ts";
import { createTestEnv, type TestEnv } from "../tests/harness/env.ts";
import { CHECKOUT_DIR } from "../tests/harness/rienda.ts";
import { measureCapabilities } from "./bench_capabilities.ts";
import { measureCodingTools, READ_EDIT_SCENARIO } from "./bench_coding_tools.ts";
import { measureExtensions, writeExtensionAgents } from "./bench_extensions.ts";
import { measureCommandHooks } from "./bench_command_hooks.ts";
import { measureInteractive } from "./bench_interactive.ts";
import { LONG_SESSION_ID, writeLongSession } from "./bench_long_session.ts";
import { mcpScenarios, measureMcpCall, measureStartToFirstRequest } from "./bench_mcp.ts";
import { MASKING_SCENARIO, measureMasking } from "./bench_masking.ts";
import { measureShellCommand } from "./bench_shell.ts";
import { measureSseParser, sseScenarios } from "./bench_sse.ts";
import { replayScenarios } from "./bench_replay.ts";
import { measureRatios } from "./bench_ratios.ts";
import { measureAcp } from "./bench_acp.ts";
import { measureDelegation } from "./bench_subagents.ts";

const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? "10");
const TIME = "/usr/bin/time";
const hasTime = await Deno.stat(TIME).then(() => true, () => false);

/** One measured scenario. */
export interface Scenario {
  readonly name: string;
  readonly target?: { readonly seconds: number; readonly mib?: number };
  /** The turns the provider plays for one run. */
  readonly turns: () => Turn[];
  readonly args: readonly string[];
  readonly setup?: (env: TestEnv) => Promise<void>;
}

/** One run's wall time, peak RSS and CPU time. */
export interface Sample {
  readonly seconds: number;
  readonly rssKib: number | null;
  /** User plus system CPU seconds (10 ms resolution), null without `/usr/bin/time`. */
  readonly cpu: number | null;
}

/** The deno arguments that run the CLI from source, as the dev task does. */
export function cliArgs(args: readonly string[]): string[] {
  return [
    "run",
    "-q",
    "--config",
    `${CHECKOUT_DIR}/deno.json`,
    "-P=rienda",
    "--no-prompt",
    `${CHECKOUT_DIR}/src/main.ts`,
    ...args,
  ];
}

/** The deno arguments that run the CLI with `args` (the module graph, or another build of it). */
export type CliArgs = (args: readonly string[]) => string[];

/**
 * Runs `deno` with `cli(args)` once in the env's workspace, under `/usr/bin/time` when it exists:
 * wall seconds, peak RSS and CPU seconds.
 */
export async function runOnce(
  env: TestEnv,
  args: readonly string[],
  cli: CliArgs,
): Promise<Sample> {
  const deno = Deno.execPath();
  const started = performance.now();
  const child = new Deno.Command(hasTime ? TIME : deno, {
    args: hasTime ? ["-f", "%M %U %S", deno, ...cli(args)] : cli(args),
    cwd: env.workdir,
    env: { RIENDA_HOME: env.home, NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const output = await child.output();
  const seconds = (performance.now() - started) / 1000;
  const stderr = new TextDecoder().decode(output.stderr);
  if (output.code !== 0) {
    throw new Error(`rienda ${args.join(" ")} exited with ${output.code}:\n${stderr}`);
  }
  const [rss = NaN, user = NaN, system = NaN] = hasTime
    ? (stderr.trim().split("\n").at(-1) ?? "").split(" ").map(Number)
    : [];
  return {
    seconds,
    rssKib: Number.isFinite(rss) ? rss : null,
    cpu: Number.isFinite(user + system) ? user + system : null,
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Measures one scenario over `RUNS` runs (plus one warm-up). */
export async function measure(scenario: Scenario): Promise<string> {
  return (await measureScenario(scenario)).line;
}

/**
 * {@link measure}, with the median seconds, the peak MiB and the mean CPU seconds (both null
 * without `/usr/bin/time`); `cli` runs another build of the CLI than the module graph.
 */
export async function measureScenario(
  scenario: Scenario,
  cli: CliArgs = cliArgs,
): Promise<{ line: string; seconds: number; mib: number | null; cpu: number | null }> {
  await using provider = await startFakeProvider();
  await using env = await createTestEnv({ provider });
  await scenario.setup?.(env);
  const samples: Sample[] = [];
  for (let run = 0; run <= RUNS; run++) {
    provider.push(...scenario.turns());
    const sample = await runOnce(env, scenario.args, cli);
    if (run > 0) samples.push(sample);
  }
  const seconds = median(samples.map((sample) => sample.seconds));
  const rss = samples.every((sample) => sample.rssKib !== null)
    ? Math.max(...samples.map((sample) => sample.rssKib!)) / 1024
    : null;
  const target = scenario.target === undefined
    ? ""
    : `  (target ≤ ${scenario.target.seconds} s${
      scenario.target.mib === undefined ? "" : `, ≤ ${scenario.target.mib} MiB`
    })`;
  const line = `${scenario.name.padEnd(34)} ${seconds.toFixed(3)} s  ${
    rss === null ? "n/a" : `${rss.toFixed(1)} MiB`
  }${target}`;
  const cpu = samples.every((sample) => sample.cpu !== null)
    ? samples.reduce((sum, sample) => sum + sample.cpu!, 0) / samples.length
    : null;
  return { line, seconds, mib: rss, cpu };
}

/**
 * What declaring one user tool, or one hook, adds to a one-shot answer that
 * never calls it (target for a tool: ≤ 30 ms, ≤ 15 MiB): the same run with
 * agent `coder` (built-in tools only), `plain` (one user tool) and `guarded`
 * (one hook, whose exports a run reads from the module, so the engine starts
 * while the run loads), measured one after another so all see the same
 * load. The warm-up run remembers the tool's exports.
 */
export async function measureExtensionOverhead(): Promise<string[]> {
  const without: Scenario = {
    name: "one-shot, built-in tools only",
    turns: () => [{ text: "hello" }],
    args: ["run", "-a", "coder", "-p", "hi"],
    setup: writeExtensionAgents,
  };
  const withTool: Scenario = {
    ...without,
    name: "one-shot, 1 user tool declared",
    args: ["run", "-a", "plain", "-p", "hi"],
  };
  const withHook: Scenario = {
    ...without,
    name: "one-shot, 1 hook declared",
    args: ["run", "-a", "guarded", "-p", "hi"],
  };
  const a = await measureScenario(without);
  const b = await measureScenario(withTool);
  const c = await measureScenario(withHook);
  const more = (than: typeof a, name: string, measured: typeof a, target: string) => {
    const mib = than.mib === null || measured.mib === null
      ? "n/a"
      : `${(measured.mib - than.mib).toFixed(1)} MiB`;
    return `${name.padEnd(34)} +${
      ((measured.seconds - than.seconds) * 1000).toFixed(0)
    } ms  +${mib}${target}`;
  };
  return [
    a.line,
    b.line,
    c.line,
    more(a, "user extension before its first call", b, "  (target ≤ 30 ms, ≤ 15 MiB)"),
    more(a, "hook before its first call", c, ""),
  ];
}

const shellTurns = (count: number): Turn[] => [
  ...Array.from({ length: count }, (_, index) => ({
    toolCalls: [{ name: "shell", arguments: { command: `echo ${index}` } }],
  })),
  { text: "done" },
];

/** The foundation's scenarios. */
export const SCENARIOS: Scenario[] = [
  { name: "--version", turns: () => [], args: ["--version"] },
  {
    name: "one-shot answer",
    target: { seconds: 0.25, mib: 80 },
    turns: () => [{ text: "hello" }],
    args: ["run", "-a", "coder", "-p", "hi"],
  },
  {
    name: "20 sequential shell calls",
    target: { seconds: 0.5 },
    turns: () => shellTurns(20),
    args: ["run", "-a", "coder", "-p", "go"],
  },
  {
    // Loading and continuing adds at most 200 ms to the one-shot run.
    name: "continue a 10,000-entry session",
    target: { seconds: 0.45 },
    turns: () => [{ text: "hello" }],
    args: ["run", "-s", LONG_SESSION_ID, "-p", "hi"],
    setup: writeLongSession,
  },
  {
    // The same run with a built-in tool, a user tool, then 5 hooks around it.
    name: "one shell call",
    turns: () => [{ toolCalls: [{ name: "shell", arguments: { command: "true" } }] }, {
      text: "done",
    }],
    args: ["run", "-a", "coder", "-p", "go"],
  },
  {
    name: "one user tool call",
    turns: () => [{ toolCalls: [{ name: "trivial", arguments: {} }] }, { text: "done" }],
    args: ["run", "-a", "plain", "-p", "go"],
    setup: writeExtensionAgents,
  },
  {
    name: "one user tool call, 5 hooks",
    turns: () => [{ toolCalls: [{ name: "trivial", arguments: {} }] }, { text: "done" }],
    args: ["run", "-a", "hooked", "-p", "go"],
    setup: writeExtensionAgents,
  },
  ...mcpScenarios(),
  ...sseScenarios(),
  READ_EDIT_SCENARIO,
  ...replayScenarios(),
  MASKING_SCENARIO,
];

if (import.meta.main) {
  Deno.stdout.writeSync(new TextEncoder().encode("the goals, as ratios to a floor:\n"));
  for (const line of await measureRatios()) {
    Deno.stdout.writeSync(new TextEncoder().encode(`${line}\n`));
  }
  Deno.stdout.writeSync(
    new TextEncoder().encode(`median of ${RUNS} runs, peak RSS over the runs\n`),
  );
  for (const scenario of SCENARIOS) {
    const line = await measure(scenario);
    Deno.stdout.writeSync(new TextEncoder().encode(`${line}\n`));
  }
  for (const line of await measureExtensionOverhead()) {
    Deno.stdout.writeSync(new TextEncoder().encode(`${line}\n`));
  }
  const firstRequest = await measureStartToFirstRequest(cliArgs);
  Deno.stdout.writeSync(
    new TextEncoder().encode(
      `${"start to first request, 1 stdio MCP".padEnd(34)} ${(firstRequest / 1000).toFixed(3)} s\n`,
    ),
  );
  Deno.stdout.writeSync(new TextEncoder().encode("MCP against a built-in tool, in process:\n"));
  for (const line of await measureMcpCall()) {
    Deno.stdout.writeSync(new TextEncoder().encode(`  ${line}\n`));
  }
  Deno.stdout.writeSync(new TextEncoder().encode("a delegation against a plain tool call:\n"));
  for (const line of await measureDelegation(cliArgs)) {
    Deno.stdout.writeSync(new TextEncoder().encode(`  ${line}\n`));
  }
  Deno.stdout.writeSync(new TextEncoder().encode("shell tool, in process:\n"));
  for (const line of await measureShellCommand()) {
    Deno.stdout.writeSync(new TextEncoder().encode(`  ${line}\n`));
  }
  Deno.stdout.writeSync(new TextEncoder().encode("file tools, in process:\n"));
  for (const line of await measureCodingTools()) {
    Deno.stdout.writeSync(new TextEncoder().encode(`  ${line}\n`));
  }
  Deno.stdout.writeSync(new TextEncoder().encode("SSE parser, in process (16 KiB chunks):\n"));
  for (const line of await measureSseParser()) {
    Deno.stdout.writeSync(new TextEncoder().encode(`  ${line}\n`));
  }
  Deno.stdout.writeSync(new TextEncoder().encode("interactive mode:\n"));
  for (const line of await measureInteractive(RUNS)) {
    Deno.stdout.writeSync(new TextEncoder().encode(`  ${line}\n`));
  }
  Deno.stdout.writeSync(new TextEncoder().encode("editors (rienda acp):\n"));
  for (const line of await measureAcp(cliArgs)) {
    Deno.stdout.writeSync(new TextEncoder().encode(`  ${line}\n`));
  }
  Deno.stdout.writeSync(new TextEncoder().encode("extension host, in process:\n"));
  for (const line of await measureExtensions()) {
    Deno.stdout.writeSync(new TextEncoder().encode(`  ${line}\n`));
  }
  Deno.stdout.writeSync(new TextEncoder().encode("one hook per tool call, spawn to verdict:\n"));
  for (const line of await measureCommandHooks()) {
    Deno.stdout.writeSync(new TextEncoder().encode(`  ${line}\n`));
  }
  Deno.stdout.writeSync(new TextEncoder().encode("masking secrets, in process:\n"));
  for (const line of await measureMasking()) {
    Deno.stdout.writeSync(new TextEncoder().encode(`  ${line}\n`));
  }
  Deno.stdout.writeSync(new TextEncoder().encode("capability checks, in process:\n"));
  for (const line of await measureCapabilities()) {
    Deno.stdout.writeSync(new TextEncoder().encode(`  ${line}\n`));
  }
}
