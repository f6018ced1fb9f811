/**
 * The overhead of a delegation for `deno task bench`: in one `rienda run`
 * of 20 rounds, the time from a request of the parent to the next request
 * the fake provider receives, when the parent's answer is one `agent` call
 * (the next request is the child's first: the child's preparation, agent
 * file, session and run start included) against when it is one `ls` call
 * of another folder each round (the next request is the parent's). Both gaps include streaming the
 * parent's answer and parsing it; their difference is what delegating costs
 * before the child's first request.
 *
 * @module
 */

import { line } from "./bench_extensions.ts";
import { spawnSilent } from "./bench_mcp.ts";
import { startFakeProvider, type Turn } from "../tests/harness/fake_provider.ts";
import { createTestEnv } from "../tests/harness/env.ts";
import type { CliArgs } from "./bench.ts";

const ROUNDS = Number(Deno.env.get("BENCH_DELEGATIONS") ?? "20");

/** Milliseconds between consecutive requests, by how the parent's answer called a tool. */
async function gaps(cliArgs: CliArgs, call: "agent" | "ls"): Promise<number[]> {
  await using provider = await startFakeProvider();
  await using env = await createTestEnv({ provider });
  await env.writeAgent("lead", { description: "Leads.", tools: ["agent", "ls"] }, "You lead.");
  await env.writeAgent("helper", { description: "Helps." }, "You help.");
  const turns: Turn[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Calls that differ, or the loop guard would stop the run.
    await Deno.mkdir(`${env.workdir}/d${round}`);
    turns.push({
      when: "You lead.",
      toolCalls: [
        call === "agent"
          ? { name: "agent", arguments: { agent: "helper", prompt: `round ${round}` } }
          : { name: "ls", arguments: { path: `d${round}` } },
      ],
    });
    if (call === "agent") turns.push({ when: "You help.", text: `done ${round}` });
  }
  turns.push({ when: "You lead.", text: "all done" });
  provider.push(...turns);
  const child = spawnSilent(env, cliArgs(["run", "-a", "lead", "-p", "go"]));
  const arrivals: number[] = [];
  const perRound = call === "agent" ? 2 : 1;
  for (let index = 1; index <= ROUNDS * perRound + 1; index++) {
    await provider.waitForRequests(index, 60_000);
    arrivals.push(performance.now());
  }
  await child.status;
  // The gap after each parent request that made the call.
  const samples: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const at = round * perRound;
    samples.push((arrivals[at + 1] ?? 0) - (arrivals[at] ?? 0));
  }
  return samples.slice(1); // the first round warms the module cache of the child's path
}

/** Lines comparing a delegation's gap with a plain tool call's, median and p95. */
export async function measureDelegation(cliArgs: CliArgs): Promise<string[]> {
  const plain = await gaps(cliArgs, "ls");
  const delegated = await gaps(cliArgs, "agent");
  return [
    line("ls call: parent request to next request", plain),
    line("agent call: parent request to child's first", delegated),
  ];
}
