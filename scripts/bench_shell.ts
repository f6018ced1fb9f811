/**
 * The cost of one command of the `shell` tool for `deno task bench`,
 * measured in this process: `runInProcessGroup` (the watched `sh` wrapper,
 * live output pumps, group bookkeeping) against a bare `sh -c true` spawn
 * with the same piped streams, the floor any command pays; and the same
 * command confined by the sandbox (`sandbox: workspace-write`, bubblewrap),
 * spawn to exit, private temp folder included, when the sandbox starts here.
 *
 * @module
 */

import { runInProcessGroup } from "../src/tools/process_group.ts";
import { line, timeEach } from "./bench_extensions.ts";
import { createCommandSandbox } from "../src/sandbox/command_sandbox.ts";
import { probeSandbox } from "../src/sandbox/sandbox_probe.ts";
import { modeSetting } from "../src/sandbox/sandbox_setting.ts";

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
  const workspace = await Deno.makeTempDir({ prefix: "rienda-bench-sandbox-" });
  const sandbox = (await probeSandbox()).ok
    ? createCommandSandbox(modeSetting("workspace-write"), {
      workspace,
      home: Deno.env.get("HOME") ?? "/",
      protect: [],
    })
    : null;
  // As the shell tool does it: confine (temp folder, plan), run, remove the temp folder.
  const confined = async () => {
    const wrapped = await sandbox?.confine("true");
    if (wrapped === undefined || "refused" in wrapped) throw new Error("no sandbox");
    try {
      await runInProcessGroup({
        command: wrapped.command,
        env: wrapped.env,
        cwd: workspace,
        signal,
      });
    } finally {
      await wrapped.release();
    }
  };
  await timeEach(10, bare);
  await timeEach(10, watched);
  if (sandbox !== null) await timeEach(10, confined);
  // Interleaved rounds, so a busy machine slows all alike.
  const bareSamples: number[] = [];
  const watchedSamples: number[] = [];
  const confinedSamples: number[] = [];
  for (let round = 0; round < 10; round++) {
    bareSamples.push(...await timeEach(CALLS / 10, bare));
    watchedSamples.push(...await timeEach(CALLS / 10, watched));
    if (sandbox !== null) confinedSamples.push(...await timeEach(CALLS / 10, confined));
  }
  await Deno.remove(workspace, { recursive: true });
  return [
    line("sh -c true, bare spawn, piped", bareSamples),
    line("shell tool command true (watched group)", watchedSamples),
    sandbox === null
      ? "shell tool command true, sandboxed: the sandbox does not start here"
      : line("shell tool command true, sandboxed (workspace-write, bwrap)", confinedSamples),
  ];
}
