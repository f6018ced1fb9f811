/**
 * Start-up of the module graph against a bundled program (`deno bundle`):
 * `--version`, a one-shot answer and the chat (to a usable prompt and to the
 * agent loaded), each run from source as the dev task runs it and from a
 * bundle with the same permissions, against the fake provider. The numbers
 * decide what `deno task compile` ships (docs/performance.md).
 *
 * The bundle is the one `deno task compile` and `deno task npm-pack` ship
 * (scripts/bundle.ts), run with `deno run` and the same permissions.
 *
 * `deno run -A scripts/bench_bundle.ts` (BENCH_RUNS per round, default 10;
 * BENCH_ROUNDS alternating rounds, default 3).
 *
 * @module
 */

import { join } from "node:path";
import { createTestEnv } from "../tests/harness/env.ts";
import { startFakeProvider } from "../tests/harness/fake_provider.ts";
import { type CliArgs, cliArgs, measureScenario, type Scenario } from "./bench.ts";
import { LOADED, quote, READY, timeToReady } from "./bench_interactive.ts";
import { buildStamp, bundle, permissionFlags } from "./bundle.ts";

const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? "10");
const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? "3");

/** The deno arguments that run the bundle in `outdir` with the binary's permissions. */
export function bundleArgs(outdir: string): CliArgs {
  const permissions = permissionFlags();
  return (args) => ["run", "-q", "--no-config", ...permissions, join(outdir, "main.js"), ...args];
}

const SCENARIOS: Scenario[] = [
  { name: "--version", turns: () => [], args: ["--version"] },
  {
    name: "one-shot answer",
    turns: () => [{ text: "hello" }],
    args: ["run", "-a", "coder", "-p", "hi"],
  },
];

/** Seconds to a usable prompt and to the agent loaded, in a pty. */
async function chatSeconds(cli: CliArgs): Promise<[number, number]> {
  await using provider = await startFakeProvider();
  await using env = await createTestEnv({ provider });
  const options = {
    cwd: env.workdir,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: env.userHome,
      RIENDA_HOME: env.home,
      TERM: "xterm-256color",
    },
    runs: RUNS,
    quit: "\x04",
  };
  const command = [Deno.execPath(), ...cli(["-a", "coder"])].map(quote).join(" ");
  return [await timeToReady(command, READY, options), await timeToReady(command, LOADED, options)];
}

function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
}

/**
 * The result lines: each scenario from the module graph and from the bundle,
 * in ROUNDS alternating rounds (so both see the same load), the median round.
 */
export async function measureBundle(): Promise<string[]> {
  const outdir = await Deno.makeTempDir({ prefix: "rienda-bundle-" });
  try {
    await bundle(outdir, await buildStamp("binary"));
    const builds = [["graph", cliArgs], ["bundle", bundleArgs(outdir)]] as const;
    const seconds = new Map<string, number[]>();
    const add = (name: string, value: number) =>
      seconds.set(name, [...seconds.get(name) ?? [], value]);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [label, cli] of builds) {
        for (const scenario of SCENARIOS) {
          const { seconds: wall, cpu } = await measureScenario(scenario, cli);
          add(`${label} ${scenario.name}`, wall);
          if (cpu !== null) add(`${label} ${scenario.name}, CPU (mean)`, cpu);
        }
        const [ready, loaded] = await chatSeconds(cli);
        add(`${label} chat, usable prompt (pty)`, ready);
        add(`${label} chat, agent loaded`, loaded);
      }
    }
    return [...seconds].map(([name, values]) =>
      `${name.padEnd(40)} ${median(values).toFixed(3)} s  (rounds: ${
        values.map((value) => value.toFixed(3)).join(", ")
      })`
    );
  } finally {
    await Deno.remove(outdir, { recursive: true });
  }
}

if (import.meta.main) {
  Deno.stdout.writeSync(
    new TextEncoder().encode(`median of ${RUNS} runs per round, ${ROUNDS} rounds\n`),
  );
  for (const line of await measureBundle()) {
    Deno.stdout.writeSync(new TextEncoder().encode(`${line}\n`));
  }
}
