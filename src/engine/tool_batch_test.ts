import assert from "node:assert/strict";
import {
  createProbe,
  eventLog,
  fakeHookRunner,
  type FakeHooks,
  fakeTool,
  memorySession,
  type Probe,
} from "../../tests/_testing/engine_fakes.ts";
import type { ToolCallBlock } from "../llm/messages.ts";
import { type CallableTool, errorResult } from "../tools/tool.ts";
import { runToolBatch } from "./tool_batch.ts";
import { done, type ToolGate } from "./hooks.ts";
import type { ToolHooks } from "./serial_hooks.ts";

const CALL: ToolCallBlock = { type: "tool_call", id: "c1", name: "read", arguments: {} };

async function batch(
  probe: Probe,
  options: {
    hooks?: FakeHooks;
    calls?: readonly ToolCallBlock[];
    throws?: boolean;
    text?: string;
    redact?: (text: string) => string;
  } = {},
) {
  const tool = fakeTool(probe, "read", () => {
    if (options.throws) throw new Error("boom");
    return { text: options.text ?? "raw", isError: false };
  });
  const { outcomes } = await runToolBatch(options.calls ?? [CALL], new Map(), {
    ...batchOptions(probe, [tool], fakeHookRunner(probe, options.hooks ?? {})),
    ...(options.redact === undefined ? {} : { redact: options.redact }),
  });
  return { results: outcomes.map((outcome) => outcome.result), started: tool.started };
}

Deno.test("runToolBatch() names the available tools for an unknown one", async () => {
  const { results } = await batch(createProbe(), {
    calls: [{ ...CALL, name: "nope" }],
  });
  assert.deepEqual(results, [errorResult('unknown tool "nope" (available: read)')]);
});

Deno.test("runToolBatch() turns a tool's throw into an error result", async () => {
  const { results } = await batch(createProbe(), { throws: true });
  assert.deepEqual(results, [errorResult("boom")]);
});

Deno.test("runToolBatch() keeps a hook's refusal and runs nothing", async () => {
  const { results, started } = await batch(createProbe(), {
    hooks: { beforeToolExecute: () => ({ allow: false, reason: "refused: prod" }) },
  });
  assert.deepEqual(results, [errorResult("refused: prod")]);
  assert.deepEqual(started, []);
});

Deno.test("runToolBatch() stores no raw result when the interrupt stops the rewriting hook", async () => {
  const hooks: FakeHooks = { afterToolExecute: () => ({ text: "clean" }) };
  const full = await batch(createProbe(), { hooks });
  assert.deepEqual(full.results, [{ text: "clean", isError: false }]);
  // Steps: beforeToolExecute, tool_start, tool, afterToolExecute.
  const expected = [
    "the run was interrupted before the tool ran",
    "the run was interrupted before the tool ran",
    "the run was interrupted while the tool ran",
    "the run was interrupted while the tool ran",
  ];
  for (const [index, text] of expected.entries()) {
    const { results } = await batch(createProbe(index + 1), { hooks });
    assert.deepEqual(results, [errorResult(text)], `interrupted at step ${index + 1}`);
  }
});

Deno.test("runToolBatch() masks a result before afterToolExecute sees it, and a hook's rewrite too", async () => {
  const redact = (text: string) => text.replaceAll("KEY", "[masked]");
  const seen: string[] = [];
  const { results } = await batch(createProbe(), {
    text: "tool says KEY",
    redact,
    hooks: {
      afterToolExecute: (_call, result) => {
        seen.push(result.text);
        return { text: `${result.text}; hook adds KEY` };
      },
    },
  });
  assert.deepEqual(seen, ["tool says [masked]"]);
  assert.deepEqual(results, [{ text: "tool says [masked]; hook adds [masked]", isError: false }]);
  const refused = await batch(createProbe(), {
    redact,
    hooks: { beforeToolExecute: () => ({ allow: false, reason: "no: KEY" }) },
  });
  assert.deepEqual(refused.results, [errorResult("no: [masked]")]);
});

/** The options of a batch of `tools` under `hooks`, with an in-memory session. */
function batchOptions(probe: Probe, tools: readonly CallableTool[], hooks: ToolHooks) {
  return {
    tools: new Map(tools.map((tool) => [tool.name, tool])),
    hooks,
    session: memorySession(probe),
    workdir: "/w",
    emit: eventLog().emit,
    signal: probe.signal,
    redact: (text: string) => text,
  };
}

/** A concurrent tool whose calls wait until `together` of them have started. */
function meetingTool(name: string, together: number, met: { count: number }): CallableTool {
  let release: () => void = () => {};
  const all = new Promise<void>((resolve) => (release = resolve));
  return {
    name,
    description: "meets",
    parameters: { type: "object" },
    concurrent: true,
    check: (args) => Promise.resolve({ ok: true, args: { ...Object(args) } }),
    async run(_args, context) {
      met.count++;
      if (met.count >= together) release();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("the calls ran one after another")), 5_000);
      });
      try {
        await Promise.race([all, timeout]);
      } finally {
        clearTimeout(timer);
      }
      return { text: `met ${context.callId}`, isError: false };
    },
  };
}

Deno.test("runToolBatch() runs concurrent calls next to each other at once, hooks one at a time, results in call order", async () => {
  const probe = createProbe();
  const met = { count: 0 };
  let inHook = 0;
  let overlapped = false;
  let gates = 0;
  const fake = fakeHookRunner(probe);
  // A chain that takes a while: two of them at once would overlap.
  const hooks = {
    ...fake,
    async beforeToolExecute(call: { arguments: unknown }) {
      inHook++;
      gates++;
      if (inHook > 1) overlapped = true;
      await new Promise((resolve) => setTimeout(resolve, 1));
      inHook--;
      return done<ToolGate>({ allow: true, arguments: call.arguments });
    },
  };
  const read = fakeTool(probe, "read");
  const calls: ToolCallBlock[] = [
    { type: "tool_call", id: "a", name: "meet", arguments: {} },
    { type: "tool_call", id: "b", name: "meet", arguments: {} },
    { type: "tool_call", id: "c", name: "read", arguments: {} },
  ];
  const { outcomes } = await runToolBatch(
    calls,
    new Map(),
    batchOptions(probe, [meetingTool("meet", 2, met), read], hooks),
  );
  assert.deepEqual(outcomes.map((outcome) => outcome.result.text), ["met a", "met b", "ran read"]);
  assert.equal(overlapped, false);
  assert.equal(gates, 3);
});

Deno.test("runToolBatch() after a stop lets a started call finish through its hooks, and starts no other", async () => {
  const probe = createProbe();
  let started: () => void = () => {};
  const c1Started = new Promise<void>((resolve) => (started = resolve));
  let finish: () => void = () => {};
  const c1Finishes = new Promise<void>((resolve) => (finish = resolve));
  const afterSeen: string[] = [];
  const slow: CallableTool = {
    name: "slow",
    description: "waits",
    parameters: { type: "object" },
    concurrent: true,
    check: (args) => Promise.resolve({ ok: true, args: { ...Object(args) } }),
    async run(_args, context) {
      started();
      await c1Finishes;
      return { text: `ran ${context.callId}`, isError: false };
    },
  };
  const hooks = {
    ...fakeHookRunner(probe),
    async beforeToolExecute(call: { id: string; arguments: unknown }) {
      if (call.id !== "b") return done<ToolGate>({ allow: true, arguments: call.arguments });
      await c1Started;
      finish();
      return { kind: "stopped" as const, hook: "budget", reason: "spent" };
    },
    afterToolExecute(call: { id: string }, result: { text: string; isError: boolean }) {
      afterSeen.push(call.id);
      return Promise.resolve(done({ ...result, text: `${result.text}, audited` }));
    },
  };
  const calls: ToolCallBlock[] = ["a", "b", "c"].map((id) => ({
    type: "tool_call",
    id,
    name: "slow",
    arguments: {},
  }));
  const { outcomes, stop } = await runToolBatch(
    calls,
    new Map(),
    batchOptions(probe, [slow], hooks),
  );
  assert.deepEqual(outcomes.map((outcome) => outcome.result.text), [
    "ran a, audited",
    'hook "budget" stopped the run: spent',
    'the tool was not executed: hook "budget" stopped the run',
  ]);
  assert.deepEqual(afterSeen, ["a"]);
  assert.deepEqual(stop, {
    point: "beforeToolExecute",
    hook: "budget",
    reason: "spent",
    callId: "b",
  });
});
