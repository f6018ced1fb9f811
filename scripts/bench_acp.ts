/**
 * The latency an editor sees (docs/editors.md): the time from starting
 * `rienda acp` and sending `initialize`, `session/new` and `session/prompt`
 * to the first `agent_message_chunk`, against the time from starting a
 * one-shot `rienda run` to the first byte of its answer, and the time from a
 * second prompt in the same process to its first chunk. The runs of the
 * three alternate, so all see the same load.
 *
 * `deno run -A scripts/bench_acp.ts` (`BENCH_RUNS`, default 10).
 *
 * @module
 */

import * as acp from "@agentclientprotocol/sdk";
import { startAcpClient } from "../tests/harness/acp_client.ts";
import { createTestEnv, type TestEnv } from "../tests/harness/env.ts";
import { type FakeProvider, startFakeProvider } from "../tests/harness/fake_provider.ts";
import { childEnv } from "../tests/harness/rienda.ts";
import { type CliArgs, cliArgs } from "./bench.ts";

const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? "10");

/** Milliseconds from starting `rienda run` to the first byte on its stdout. */
async function oneShotFirstByte(env: TestEnv, cli: CliArgs): Promise<number> {
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: cli(["run", "-a", "coder", "-p", "hi"]),
    cwd: env.workdir,
    clearEnv: true,
    env: await childEnv({ cwd: env.workdir, home: env.userHome, riendaHome: env.home }),
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.getReader();
  const first = await reader.read();
  const elapsed = performance.now() - started;
  if (first.done) throw new Error("rienda run printed nothing");
  while (!(await reader.read()).done) { /* drain */ }
  await child.status;
  return elapsed;
}

/**
 * Milliseconds from starting `rienda acp` (initialize sent at once) to the
 * answer of `initialize` and to the first chunk of the first prompt, and
 * from a second prompt to its first chunk.
 */
async function acpFirstChunks(
  env: TestEnv,
  provider: FakeProvider,
  cli: CliArgs,
): Promise<[number, number, number]> {
  provider.push({ text: "hello" }, { text: "again" });
  const started = performance.now();
  await using editor = await startAcpClient({
    cwd: env.workdir,
    home: env.userHome,
    riendaHome: env.home,
    args: ["-a", "coder"],
    denoArgs: cli,
  });
  await editor.agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
  });
  const initialized = performance.now() - started;
  const { sessionId } = await editor.agent.request(acp.methods.agent.session.new, {
    cwd: env.workdir,
    mcpServers: [],
  });
  const chunks = () =>
    editor.updates.filter(({ update }) => update.sessionUpdate === "agent_message_chunk").length;
  const prompt = (text: string) =>
    editor.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text }],
    });
  const first = prompt("hi");
  await editor.waitForUpdate(() => chunks() >= 1);
  const cold = performance.now() - started;
  await first;
  const again = performance.now();
  const second = prompt("again");
  await editor.waitForUpdate(() => chunks() >= 2);
  const warm = performance.now() - again;
  await second;
  return [initialized, cold, warm];
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The medians, one line each. */
export async function measureAcp(cli: CliArgs): Promise<string[]> {
  await using provider = await startFakeProvider();
  await using env = await createTestEnv({ provider });
  const oneShot: number[] = [];
  const initialized: number[] = [];
  const cold: number[] = [];
  const warm: number[] = [];
  for (let run = 0; run <= RUNS; run++) {
    provider.push({ text: "hello" });
    const shot = await oneShotFirstByte(env, cli);
    const [init, first, next] = await acpFirstChunks(env, provider, cli);
    if (run === 0) continue; // the warm-up
    oneShot.push(shot);
    initialized.push(init);
    cold.push(first);
    warm.push(next);
  }
  const line = (name: string, values: readonly number[]) =>
    `${name.padEnd(46)} ${(median(values) / 1000).toFixed(3)} s`;
  return [
    line("rienda run: start to first answer byte", oneShot),
    line("rienda acp: start to initialize answered", initialized),
    line("rienda acp: start + initialize to first chunk", cold),
    line("rienda acp: next prompt to first chunk", warm),
  ];
}

if (import.meta.main) {
  Deno.stdout.writeSync(new TextEncoder().encode(`median of ${RUNS} runs\n`));
  for (const line of await measureAcp(cliArgs)) {
    Deno.stdout.writeSync(new TextEncoder().encode(`${line}\n`));
  }
}
