/**
 * The long-session scenario of `deno task bench`: a stored session of 10,000
 * entries (prompts, tool calls, results, answers) that a run continues with
 * `-s`, measuring what loading and resending a long history costs.
 *
 * @module
 */

import type { TestEnv } from "../tests/harness/env.ts";
import { projectDir } from "../src/sessions/project.ts";

/** The id of the generated session. */
export const LONG_SESSION_ID = "01k0bench00000000000000000";

/** Entries after the header. */
export const LONG_SESSION_ENTRIES = 10_000;

/**
 * Writes the session file of {@link LONG_SESSION_ID} into `env`'s workspace,
 * and raises the model's context window so the run does not compact it.
 */
export async function writeLongSession(env: TestEnv): Promise<void> {
  const config = await Deno.readTextFile(env.configPath);
  await env.writeConfig(
    config.replace(
      "        id: fake-model\n",
      "        id: fake-model\n        context_window: 100000000\n",
    ),
  );
  const dir = await projectDir(`${env.home}/sessions`, env.workdir);
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const createdAt = new Date().toISOString();
  const lines = [JSON.stringify({
    kind: "header",
    version: 1,
    id: LONG_SESSION_ID,
    createdAt,
    agent: "coder",
    model: "fake/m",
    workdir: env.workdir,
  })];
  const usage = {
    inputTokens: 1200,
    outputTokens: 80,
    reasoningTokens: 0,
    cacheReadTokens: 900,
    cacheWriteTokens: 0,
  };
  let parentId = "";
  for (let index = 0; index < LONG_SESSION_ENTRIES; index++) {
    const id = `e${index.toString(16).padStart(7, "0")}`;
    const turn = Math.floor(index / 4);
    const base = { id, parentId, createdAt };
    const entry = [
      {
        kind: "message",
        ...base,
        role: "user",
        blocks: [{ type: "text", text: `Step ${turn}: look at src/module_${turn}.ts and fix it.` }],
      },
      {
        kind: "message",
        ...base,
        role: "assistant",
        blocks: [
          { type: "text", text: "Let me read the file first." },
          {
            type: "tool_call",
            toolCallId: `call_${turn}`,
            toolCallName: "shell",
            toolCallArguments: { command: `cat src/module_${turn}.ts` },
          },
        ],
        responseModel: "fake-model",
        responseStopReason: "tool_use",
        responseUsage: usage,
      },
      {
        kind: "message",
        ...base,
        role: "user",
        blocks: [{
          type: "tool_result",
          toolResultCallId: `call_${turn}`,
          toolResult: [{ type: "text", text: `export const value${turn} = ${turn};\n`.repeat(4) }],
          toolResultIsError: false,
        }],
      },
      {
        kind: "message",
        ...base,
        role: "assistant",
        blocks: [{ type: "text", text: `Module ${turn} exports one constant; nothing to fix.` }],
        responseModel: "fake-model",
        responseStopReason: "end_turn",
        responseUsage: usage,
      },
    ][index % 4];
    lines.push(JSON.stringify(entry));
    parentId = id;
  }
  await Deno.writeTextFile(`${dir}/${LONG_SESSION_ID}.jsonl`, `${lines.join("\n")}\n`, {
    mode: 0o600,
  });
}
