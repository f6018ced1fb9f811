import assert from "node:assert/strict";
import {
  createProbe,
  eventLog,
  fakeHookRunner,
  type FakeHooks,
  fakeRunOptions,
  fakeTool,
  type MemorySession,
  memorySession,
  type Probe,
  type ScriptedAnswer,
  scriptedModel,
} from "../../tests/_testing/engine_fakes.ts";
import { type Message, toolCallsOf } from "../llm/messages.ts";
import type { RunEvent } from "./events.ts";
import { runAgent, type RunOutcome } from "./run.ts";

const SECRET = "s3cr3t";

/** Redacts the secret from answers and tool results, like a redaction hook. */
const REDACT: FakeHooks = {
  afterModelResponse: (payload) => ({ text: payload.text.replaceAll(SECRET, "[redacted]") }),
  afterToolExecute: (_call, result) => ({ text: result.text.replaceAll(SECRET, "[redacted]") }),
};

/** Two turns: an answer with a call whose result holds the secret, then a final answer. */
const TWO_TURNS: readonly ScriptedAnswer[] = [
  { text: `the key is ${SECRET}`, calls: [{ id: "call_1", name: "read", arguments: {} }] },
  { text: `done with ${SECRET}` },
];

interface Run {
  readonly outcome: RunOutcome;
  readonly events: readonly RunEvent[];
  readonly session: MemorySession;
  readonly requests: readonly { readonly messages: readonly Message[] }[];
  readonly started: readonly { readonly callId: string; readonly args: unknown }[];
  readonly hookCalls: readonly string[];
  readonly steps: readonly string[];
}

async function run(
  probe: Probe,
  options: {
    hooks?: FakeHooks;
    answers?: readonly ScriptedAnswer[];
    failWriteAt?: number;
    prompt?: string;
  } = {},
): Promise<Run> {
  const model = scriptedModel(probe, options.answers ?? TWO_TURNS);
  const hooks = fakeHookRunner(probe, options.hooks ?? REDACT);
  const session = memorySession(probe, options.failWriteAt ?? null);
  const tool = fakeTool(probe, "read", () => ({ text: `file: ${SECRET}`, isError: false }));
  const log = eventLog();
  const outcome = await runAgent(
    fakeRunOptions({
      model,
      tools: [tool],
      hooks,
      session,
      emit: log.emit,
      signal: probe.signal,
    }),
    options.prompt ?? "go",
  );
  return {
    outcome,
    events: log.events,
    session,
    requests: model.requests,
    started: tool.started,
    hookCalls: hooks.calls,
    steps: probe.steps,
  };
}

/** Runs the scenario once per await of an uninterrupted run, interrupting at that await. */
async function atEveryAwait(
  options: Parameters<typeof run>[1],
  check: (run: Run, at: string) => void,
): Promise<number> {
  const full = await run(createProbe(null), options);
  for (let abortAt = 1; abortAt <= full.steps.length; abortAt++) {
    const interrupted = await run(createProbe(abortAt), options);
    check(interrupted, `interrupted at step ${abortAt} (${interrupted.steps[abortAt - 1]})`);
  }
  return full.steps.length;
}

/** Fails unless every stored call has exactly one stored result, in call order, right after it. */
function assertValidHistory(messages: readonly Message[], at: string): void {
  for (const [index, message] of messages.entries()) {
    if (message.role !== "assistant") continue;
    const calls = toolCallsOf(message);
    if (calls.length === 0) continue;
    const next = messages[index + 1];
    if (next === undefined) continue; // a failed write may leave calls open; continuing repairs them
    assert.equal(next.role, "user", at);
    const ids = next.blocks.map((block) => block.type === "tool_result" ? block.callId : "");
    assert.deepEqual(ids, calls.map((call) => call.id), at);
  }
}

Deno.test("runAgent() without an interrupt stores and prints only redacted text", async () => {
  const result = await run(createProbe(null));
  assert.equal(result.outcome.reason, "end_turn");
  assert.ok(!JSON.stringify(result.session.messages()).includes(SECRET));
  assert.ok(!JSON.stringify(result.events).includes(SECRET));
  assert.ok(!JSON.stringify(result.requests).includes(SECRET));
});

Deno.test("an interrupt at any await never lets a rewriting hook be bypassed", async () => {
  const steps = await atEveryAwait({}, (result, at) => {
    assert.equal(result.outcome.reason, "interrupted", at);
    assert.ok(!JSON.stringify(result.session.messages()).includes(SECRET), `stored: ${at}`);
    assert.ok(!JSON.stringify(result.events).includes(SECRET), `emitted: ${at}`);
    assert.ok(!JSON.stringify(result.requests).includes(SECRET), `sent: ${at}`);
    assertValidHistory(result.session.messages(), at);
    assert.equal(result.events.filter((event) => event.type === "run_end").length, 1, at);
    assert.equal(result.hookCalls.filter((point) => point === "afterRun").length, 1, at);
  });
  assert.ok(steps > 10, `${steps} awaits`);
});

Deno.test("an interrupt at any await stores a result for every stored call", async () => {
  await atEveryAwait({ hooks: {} }, (result, at) => {
    assert.equal(result.outcome.reason, "interrupted", at);
    assertValidHistory(result.session.messages(), at);
    const last = result.session.messages().at(-1);
    if (last?.role === "assistant") assert.equal(toolCallsOf(last).length, 0, at);
  });
});

/** Fails unless the session recorded the start of every tool that started, before its results. */
function assertStartsRecorded(result: Run, at: string): void {
  const marked = result.session.records.flatMap((record) =>
    record.kind === "tool_start" ? [record.callId] : []
  );
  for (const { callId } of result.started) assert.ok(marked.includes(callId), `${callId}: ${at}`);
}

Deno.test("a tool never starts before the session records that it started", async () => {
  for (const failWriteAt of [1, 2, 3, 4, 5]) {
    const result = await run(createProbe(null), { hooks: {}, failWriteAt });
    assertStartsRecorded(result, `write ${failWriteAt} failed`);
  }
  await atEveryAwait({ hooks: {} }, assertStartsRecorded);
});

Deno.test("a failed session write ends the run with the error, and afterRun still runs", async () => {
  for (let failWriteAt = 1; failWriteAt <= 4; failWriteAt++) {
    const result = await run(createProbe(null), { failWriteAt });
    const at = `write ${failWriteAt} failed`;
    assert.equal(result.outcome.reason, "error", at);
    assert.match(result.outcome.error ?? "", /disk full/, at);
    assert.equal(result.hookCalls.filter((point) => point === "afterRun").length, 1, at);
    assertValidHistory(result.session.messages(), at);
  }
});

/** The tool calls of every stored answer, and the call ids of every stored result. */
function storedIds(messages: readonly Message[]): { calls: string[]; results: string[] } {
  const calls: string[] = [];
  const results: string[] = [];
  for (const message of messages) {
    for (const block of message.blocks) {
      if (block.type === "tool_call") calls.push(block.id);
      if (block.type === "tool_result") results.push(block.callId);
    }
  }
  return { calls, results };
}

Deno.test("a call id used twice in one answer gets a fresh id, and both calls run", async () => {
  const result = await run(createProbe(null), {
    hooks: {},
    answers: [
      {
        calls: [
          { id: "call_1", name: "read", arguments: { n: 1 } },
          { id: "call_1", name: "read", arguments: { n: 2 } },
        ],
      },
      { text: "done" },
    ],
  });
  assert.equal(result.outcome.reason, "end_turn");
  const { calls, results } = storedIds(result.session.messages());
  assert.equal(calls[0], "call_1");
  assert.match(calls[1] ?? "", /^call_[0-9a-f]{24}$/);
  assert.deepEqual(results, calls);
  assert.deepEqual(result.started.map((started) => started.callId), calls);
  // The next request carries the same unique ids.
  assert.deepEqual(storedIds(result.requests[1]?.messages ?? []), { calls, results });
});

function nested(levels: number): unknown {
  let value: unknown = [];
  for (let level = 1; level < levels; level++) value = [value];
  return value;
}

Deno.test("arguments over the limits are refused before any hook or tool sees them", async () => {
  const seenByHooks: unknown[] = [];
  const hooks: FakeHooks = {
    afterModelResponse: (payload) => {
      seenByHooks.push(payload.toolCalls.map((call) => call.arguments));
      return {};
    },
    beforeToolExecute: (call) => {
      seenByHooks.push(["beforeToolExecute", call.arguments]);
      return undefined;
    },
    afterToolExecute: (call, result) => {
      seenByHooks.push([call.arguments, result]);
      return {};
    },
  };
  const result = await run(createProbe(null), {
    hooks,
    answers: [
      {
        calls: [
          { id: "c1", name: "read", arguments: { target: "prod", pad: nested(4000) } },
          { id: "c2", name: "read", arguments: { pad: "x".repeat(2 * 1024 * 1024) } },
          { id: "c3", name: "read", arguments: { pad: nested(63) } },
        ],
      },
      { text: "done" },
    ],
  });
  assert.equal(result.outcome.reason, "end_turn");
  const deep = "[arguments nested deeper than 64 levels, not kept]";
  const large = "[arguments larger than 1 MiB, not kept]";
  assert.deepEqual(seenByHooks, [
    [deep, large, { pad: nested(63) }],
    [deep, {
      text: "the tool was not executed: arguments nested deeper than 64 levels",
      isError: true,
    }],
    [large, { text: "the tool was not executed: arguments larger than 1 MiB", isError: true }],
    ["beforeToolExecute", { pad: nested(63) }],
    [{ pad: nested(63) }, { text: `file: ${SECRET}`, isError: false }],
    [],
  ]);
  assert.deepEqual(result.started.map((started) => started.callId), ["c3"]);
  const stored = result.session.messages()[1];
  assert.deepEqual(
    stored?.blocks.map((block) => block.type === "tool_call" ? block.rawArguments : null),
    [deep, large, undefined],
  );
});

Deno.test("an answer a rewriting hook could not be handed is neither stored nor printed", async () => {
  const result = await run(createProbe(null), {
    hooks: { withhold: { afterModelResponse: 'hook "redact" could not be handed its payload' } },
  });
  assert.equal(result.outcome.reason, "error");
  assert.equal(
    result.outcome.error,
    'the answer was neither printed nor stored: hook "redact" could not be handed its payload',
  );
  assert.deepEqual(result.session.messages().map((message) => message.role), ["user"]);
  assert.ok(!JSON.stringify(result.events).includes(SECRET));
});

Deno.test("a call or result a hook could not be handed is refused or withheld", async () => {
  const refused = await run(createProbe(null), {
    hooks: { withhold: { beforeToolExecute: 'hook "guard" could not be handed its payload' } },
  });
  assert.deepEqual(refused.started, []);
  const results = refused.session.messages()[2]?.blocks;
  assert.deepEqual(results?.[0]?.type === "tool_result" ? results[0].content : null, [
    {
      type: "text",
      text: 'the tool was not executed: hook "guard" could not be handed its payload',
    },
  ]);
  const withheld = await run(createProbe(null), {
    hooks: { withhold: { afterToolExecute: 'hook "redact" could not be handed its payload' } },
  });
  assert.equal(withheld.started.length, 1);
  const withheldResults = withheld.session.messages()[2]?.blocks;
  assert.deepEqual(
    withheldResults?.[0]?.type === "tool_result" ? withheldResults[0].content : null,
    [{
      type: "text",
      text: 'the tool result was withheld: hook "redact" could not be handed its payload',
    }],
  );
  assert.ok(!JSON.stringify(withheld.requests).includes(`file: ${SECRET}`));
});

Deno.test("a prompt a beforePrompt hook refused is neither stored nor sent, and afterRun runs", async () => {
  const result = await run(createProbe(null), {
    hooks: { beforePrompt: () => ({ allow: false, reason: 'hook "gate" refused the prompt: no' }) },
  });
  assert.deepEqual(result.outcome, {
    reason: "error",
    error: 'hook "gate" refused the prompt: no',
    text: "",
    usage: result.outcome.usage,
    turns: 0,
    promptRefused: true,
  });
  assert.deepEqual(result.session.records, []);
  assert.deepEqual(result.requests, []);
  assert.deepEqual(result.hookCalls, ["beforePrompt", "afterRun"]);
  assert.deepEqual(result.events.map((event) => event.type), ["run_end"]);
});

Deno.test("a prompt a beforePrompt hook could not be handed is refused, storing nothing", async () => {
  const result = await run(createProbe(null), {
    hooks: { withhold: { beforePrompt: 'hook "gate" could not be handed its payload' } },
  });
  assert.equal(result.outcome.reason === "error" && result.outcome.promptRefused, true);
  assert.equal(result.outcome.error, 'hook "gate" could not be handed its payload');
  assert.deepEqual(result.session.records, []);
});

const PROMPT_SECRET: FakeHooks = {
  beforePrompt: (payload) => ({
    allow: true,
    text: payload.text.replaceAll(SECRET, "[redacted]"),
    context: "the user is in a hurry",
  }),
};

Deno.test("beforePrompt's text is what is stored and sent, its context a block the model reads", async () => {
  const result = await run(createProbe(null), {
    hooks: PROMPT_SECRET,
    prompt: `use ${SECRET}`,
    answers: [{ text: "ok" }],
  });
  assert.equal(result.outcome.reason, "end_turn");
  const expected: Message = {
    role: "user",
    blocks: [{ type: "text", text: "use [redacted]" }, {
      type: "text",
      text: "the user is in a hurry",
    }],
  };
  assert.deepEqual(result.session.messages()[0], expected);
  assert.deepEqual(result.requests[0]?.messages, [expected]);
});

Deno.test("an interrupt at any await never stores or sends a prompt beforePrompt did not pass", async () => {
  const options = { hooks: PROMPT_SECRET, prompt: `use ${SECRET}`, answers: [{ text: "ok" }] };
  await atEveryAwait(options, (result, at) => {
    assert.equal(result.outcome.reason, "interrupted", at);
    assert.ok(!JSON.stringify(result.session.messages()).includes(SECRET), `stored: ${at}`);
    assert.ok(!JSON.stringify(result.requests).includes(SECRET), `sent: ${at}`);
  });
});
