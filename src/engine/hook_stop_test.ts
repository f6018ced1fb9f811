import assert from "node:assert/strict";
import {
  createProbe,
  eventLog,
  fakeHookRunner,
  type FakeHooks,
  fakeRunOptions,
  fakeTool,
  memorySession,
  type Probe,
  type ScriptedAnswer,
  scriptedModel,
} from "../../tests/_testing/engine_fakes.ts";
import { type Message, toolCallsOf } from "../llm/messages.ts";
import type { HookPoint, ToolCallPayload } from "./hooks.ts";
import { runAgent, type RunOutcome } from "./run.ts";

/** One answer with three calls, then a final answer the run must never ask for after a stop. */
const THREE_CALLS: readonly ScriptedAnswer[] = [
  {
    text: "working",
    calls: [
      { id: "c1", name: "read", arguments: { n: 1 } },
      { id: "c2", name: "read", arguments: { n: 2 } },
      { id: "c3", name: "read", arguments: { n: 3 } },
    ],
  },
  { text: "should never be asked for" },
];

async function run(
  probe: Probe,
  options: {
    stop: (point: HookPoint, call?: ToolCallPayload) => string | undefined;
    hooks?: FakeHooks;
    concurrent?: boolean;
    failWriteAt?: number;
    redact?: (text: string) => string;
  },
) {
  const model = scriptedModel(probe, THREE_CALLS);
  const hooks = fakeHookRunner(probe, { ...options.hooks, stop: options.stop });
  const session = memorySession(probe, options.failWriteAt ?? null);
  const read = fakeTool(probe, "read", (args) => ({
    text: `read ${JSON.stringify(args)}`,
    isError: false,
  }));
  const tool = options.concurrent === true ? { ...read, concurrent: true } : read;
  const log = eventLog();
  const outcome = await runAgent(
    fakeRunOptions({
      model,
      tools: [tool],
      hooks,
      session,
      emit: log.emit,
      signal: probe.signal,
      ...(options.redact === undefined ? {} : { redact: options.redact }),
    }),
    "go",
  );
  return {
    outcome,
    events: log.events,
    session,
    requests: model.requests,
    started: read.started,
    hookCalls: hooks.calls,
    steps: probe.steps,
  };
}

/** The text of every tool result of `messages`, by call id. */
function resultTexts(messages: readonly Message[]): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const message of messages) {
    for (const block of message.blocks) {
      if (block.type === "tool_result") {
        texts[block.callId] = block.content.map((part) => part.text).join("");
      }
    }
  }
  return texts;
}

const totals = ({ text, usage, turns }: RunOutcome) => ({ text, usage, turns });

const atCall = (id: string, reason: string, at: HookPoint = "beforeToolExecute") =>
(
  point: HookPoint,
  call?: ToolCallPayload,
) => point === at && call?.id === id ? reason : undefined;

Deno.test("a stop at beforeToolExecute runs no call of the turn and makes no further request", async () => {
  const result = await run(createProbe(), { stop: atCall("c1", "budget reached") });
  const stop = {
    point: "beforeToolExecute",
    hook: "stopper",
    reason: "budget reached",
    callId: "c1",
  } as const;
  assert.deepEqual(result.outcome, { reason: "hook_stop", stop, ...totals(result.outcome) });
  assert.equal(result.requests.length, 1);
  assert.deepEqual(result.started, []);
  assert.deepEqual(resultTexts(result.session.messages()), {
    c1: 'hook "stopper" stopped the run: budget reached',
    c2: 'the tool was not executed: hook "stopper" stopped the run',
    c3: 'the tool was not executed: hook "stopper" stopped the run',
  });
  // The stop is recorded after the results, and no hook ran for the unrun calls.
  assert.deepEqual(result.session.records.map((record) => record.kind), [
    "message",
    "message",
    "message",
    "hook_stop",
  ]);
  assert.deepEqual(result.session.records.at(-1), { kind: "hook_stop", stop });
  assert.deepEqual(result.hookCalls.filter((point) => point.endsWith("ToolExecute")), [
    "beforeToolExecute",
  ]);
  assert.equal(result.hookCalls.filter((point) => point === "afterRun").length, 1);
  const end = result.events.at(-1);
  assert.deepEqual(end?.type === "run_end" ? end.stop : null, stop);
  assert.equal(end?.type === "run_end" ? end.text : null, "working");
});

Deno.test("a stop at afterToolExecute keeps the call's result from the model and runs no more calls", async () => {
  const result = await run(createProbe(), {
    stop: atCall("c2", "enough", "afterToolExecute"),
  });
  assert.equal(result.outcome.reason, "hook_stop");
  assert.deepEqual(result.started.map((started) => started.callId), ["c1", "c2"]);
  assert.deepEqual(resultTexts(result.session.messages()), {
    c1: 'read {"n":1}',
    c2: 'the tool ran, then hook "stopper" stopped the run: enough',
    c3: 'the tool was not executed: hook "stopper" stopped the run',
  });
  assert.equal(result.requests.length, 1);
});

Deno.test("a stop during a concurrent batch starts no call after it, not even a queued one", async () => {
  const result = await run(createProbe(), {
    concurrent: true,
    stop: atCall("c2", "stop now"),
  });
  assert.equal(result.outcome.reason, "hook_stop");
  // c1 was allowed; its tool had not started yet when c2's chain stopped the run.
  assert.deepEqual(result.started, []);
  assert.deepEqual(resultTexts(result.session.messages()), {
    c1: 'the tool was not executed: hook "stopper" stopped the run',
    c2: 'hook "stopper" stopped the run: stop now',
    c3: 'the tool was not executed: hook "stopper" stopped the run',
  });
  // c3's beforeToolExecute chain, queued behind c2's, never ran.
  assert.deepEqual(result.hookCalls.filter((point) => point.endsWith("ToolExecute")), [
    "beforeToolExecute",
    "beforeToolExecute",
  ]);
});

Deno.test("a stop at beforePrompt stores and sends nothing", async () => {
  const result = await run(createProbe(), {
    stop: (point) => point === "beforePrompt" ? "not today" : undefined,
  });
  assert.deepEqual(result.outcome, {
    reason: "hook_stop",
    stop: { point: "beforePrompt", hook: "stopper", reason: "not today" },
    ...totals(result.outcome),
  });
  assert.deepEqual(result.session.records, []);
  assert.deepEqual(result.requests, []);
  assert.deepEqual(result.events.map((event) => event.type), ["run_end"]);
  assert.deepEqual(result.hookCalls, ["beforePrompt", "afterRun"]);
});

Deno.test("a stop at beforeRun stores the prompt and the stop, and sends nothing", async () => {
  const result = await run(createProbe(), {
    stop: (point) => point === "beforeRun" ? "" : undefined,
  });
  assert.equal(result.outcome.reason, "hook_stop");
  assert.deepEqual(result.requests, []);
  assert.deepEqual(result.session.records.map((record) => record.kind), ["message", "hook_stop"]);
  assert.deepEqual(result.events.map((event) => event.type), ["run_start", "run_end"]);
});

Deno.test("a stop reason is masked, loses its escape sequences and is one line everywhere", async () => {
  const result = await run(createProbe(), {
    stop: atCall("c1", "key sk-SECRET\x1b[2J\x1b]0;title\x07 ends\n  here"),
    redact: (text) => text.replaceAll("sk-SECRET", "[masked]"),
  });
  const reason = "key [masked] ends here";
  assert.equal(result.outcome.reason === "hook_stop" ? result.outcome.stop.reason : null, reason);
  assert.equal(
    resultTexts(result.session.messages()).c1,
    `hook "stopper" stopped the run: ${reason}`,
  );
  const everything = JSON.stringify([result.events, result.session.records]);
  assert.ok(!everything.includes("sk-SECRET"));
  assert.ok(!everything.includes("\\u001b"));
});

Deno.test("a session that cannot record the stop ends the run with the error", async () => {
  const result = await run(createProbe(), {
    stop: (point) => point === "beforeRun" ? "x" : undefined,
    failWriteAt: 2,
  });
  assert.equal(result.outcome.reason, "error");
  assert.match(result.outcome.error ?? "", /disk full/);
  assert.equal(result.hookCalls.filter((point) => point === "afterRun").length, 1);
});

Deno.test("a stop racing an interrupt at any await ends the run once, with every stored call answered", async () => {
  const options = { concurrent: true, stop: atCall("c2", "stop") };
  const full = await run(createProbe(), options);
  assert.ok(full.steps.length > 8, `${full.steps.length} awaits`);
  for (let abortAt = 1; abortAt <= full.steps.length; abortAt++) {
    const result = await run(createProbe(abortAt), options);
    const at = `interrupted at step ${abortAt} (${result.steps[abortAt - 1]})`;
    assert.equal(result.outcome.reason, "interrupted", at);
    assert.ok(result.requests.length <= 1, at);
    assert.ok(!result.started.some((started) => started.callId !== "c1"), at);
    const messages = result.session.messages();
    const answer = messages[1];
    if (answer?.role === "assistant" && toolCallsOf(answer).length > 0) {
      assert.deepEqual(Object.keys(resultTexts(messages)), ["c1", "c2", "c3"], at);
    }
    assert.equal(result.events.filter((event) => event.type === "run_end").length, 1, at);
    assert.equal(result.hookCalls.filter((point) => point === "afterRun").length, 1, at);
  }
});
