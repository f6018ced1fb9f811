/**
 * The cost of one command of the `shell` tool for `deno task bench`,
 * measured in this process: `runInProcessGroup` (the watched `sh` wrapper,
 * live output pumps, group bookkeeping) against a bare `sh -c true` spawn
 * with the same piped streams, the floor any command pays.
 *
 * @module
 */

import { runInProcessGroup } from "../src/tools/process_group.ts";
import { line, timeEach } from "./bench_extensions.ts";

const CALLS = Number(Deno.env.get("BENCH_SPAWNS") ?? "200");

/** Lines comparing a shell tool command with a bare spawn, median and p95 of each. */
export async function measureShellCommand(): Promise<string[]> {
  const signal = new AbortController().signal;
  const bare = async () => {
    await new Deno.Command("sh", {
      args: ["-c", "true"],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      detached: true,
    }).output();
  };
  const watched = () => runInProcessGroup({ command: "true", cwd: Deno.cwd(), signal });
  await timeEach(10, bare);
  await timeEach(10, watched);
  // Interleaved rounds, so a busy machine slows both alike.
  const bareSamples: number[] = [];
  const watchedSamples: number[] = [];
  for (let round = 0; round < 10; round++) {
    bareSamples.push(...await timeEach(CALLS / 10, bare));
    watchedSamples.push(...await timeEach(CALLS / 10, watched));
  }
  return [
    line("sh -c true, bare spawn, piped", bareSamples),
    line("shell tool command true (watched group)", watchedSamples),
  ];
}
