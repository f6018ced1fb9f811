/**
 * Replayed runs against the same runs on the fake provider (docs/performance.md,
 * "Replayed runs"): each pair is one scenario run live, then from the cassette
 * its setup recorded with `--record`, with the same arguments otherwise.
 *
 * @module
 */

import { startFakeProvider, type Turn } from "../tests/harness/fake_provider.ts";
import type { TestEnv } from "../tests/harness/env.ts";
import type { Scenario } from "./bench.ts";

/** The cassette, relative to the workspace the runs start in. */
const CASSETTE = "../bench.cassette.jsonl";

const shellCalls = (count: number): Turn[] => [
  ...Array.from({ length: count }, (_, index) => ({
    toolCalls: [{ name: "shell", arguments: { command: `echo ${index}` } }],
  })),
  { text: "done" },
];

/** Records one run of `turns` into the cassette, on a provider of its own. */
function recording(turns: () => Turn[]): (env: TestEnv) => Promise<void> {
  return async (env) => {
    const config = await Deno.readTextFile(env.configPath);
    await using provider = await startFakeProvider(turns());
    await env.writeConfig(config.replace(/base_url: .*/, `base_url: ${provider.url}`));
    const result = await env.run(["run", "-a", "coder", "--record", CASSETTE, "-p", "go"]);
    await env.writeConfig(config);
    if (result.code !== 0) throw new Error(`recording failed: ${result.stderr}`);
  };
}

/** Live and replayed, for a run with 1 and with 20 shell calls. */
export function replayScenarios(): Scenario[] {
  return [1, 20].flatMap((count) => {
    const name = count === 1 ? "one shell call" : `${count} sequential shell calls`;
    return [
      {
        name: `${name}, fake provider`,
        turns: () => shellCalls(count),
        args: ["run", "-a", "coder", "-p", "go"],
      },
      {
        name: `${name}, replayed`,
        turns: () => [],
        args: ["run", "-a", "coder", "--replay", CASSETTE, "-p", "go"],
        setup: recording(() => shellCalls(count)),
      },
    ];
  });
}
