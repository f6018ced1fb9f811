import assert from "node:assert/strict";
import type { AssistantMessage, Message, ToolResultBlock } from "../llm/messages.ts";
import { userText } from "../llm/messages.ts";
import type { ModelClient, ModelEvent, ModelRequest } from "../llm/model_events.ts";
import {
  type CompactionRecord,
  type Compactor,
  createRunContext,
  estimateTokens,
  findCut,
  messageTokens,
  SUMMARY_INTRO,
  type SummaryInput,
} from "./compaction.ts";
import type { RunEvent } from "./events.ts";

function answer(text: string): AssistantMessage {
  return {
    role: "assistant",
    blocks: [{ type: "text", text }],
    model: "m",
    stopReason: "end_turn",
    usage: null,
  };
}

function toolCall(id: string): AssistantMessage {
  return {
    role: "assistant",
    blocks: [{ type: "tool_call", id, name: "shell", arguments: { command: "ls" } }],
    model: "m",
    stopReason: "tool_use",
    usage: null,
  };
}

function results(id: string, text: string): Message {
  const block: ToolResultBlock = {
    type: "tool_result",
    callId: id,
    content: [{ type: "text", text }],
    isError: false,
  };
  return { role: "user", blocks: [block] };
}

/** A model that answers every request with `text` and records the requests. */
function fakeModel(text: string | Error): ModelClient & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    ref: "fake/m",
    requests,
    async *stream(request): AsyncIterable<ModelEvent> {
      requests.push(request);
      await Promise.resolve();
      if (text instanceof Error) throw text;
      yield {
        type: "done",
        message: {
          ...answer(text),
          usage: {
            inputTokens: 7,
            outputTokens: 3,
            reasoningTokens: 0,
            cacheReadTokens: 0,
            cacheWriteTokens: 0,
          },
        },
      };
    },
  };
}

function fakeCompactor(
  contextWindow: number,
  keepRecentTokens: number,
): Compactor & { inputs: SummaryInput[]; records: CompactionRecord[] } {
  const inputs: SummaryInput[] = [];
  const records: CompactionRecord[] = [];
  return {
    settings: { contextWindow, reserveTokens: 0, keepRecentTokens },
    inputs,
    records,
    summaryRequest(input) {
      inputs.push(input);
      return Promise.resolve({ system: "summarise", messages: [userText("conv")], tools: [] });
    },
    record(compaction) {
      records.push(compaction);
      return Promise.resolve();
    },
  };
}

const LONG = "x".repeat(400);

Deno.test("estimateTokens() counts UTF-8 bytes of system, messages and tools divided by 4", () => {
  assert.equal(estimateTokens({ system: "", messages: [], tools: [] }), 1); // "[]"
  const withSystem = estimateTokens({ system: "é".repeat(400), messages: [], tools: [] });
  assert.equal(withSystem, Math.ceil((800 + 2) / 4));
  const tool = { name: "shell", description: "Runs.", parameters: { type: "object" } };
  const withTool = estimateTokens({ system: "", messages: [], tools: [tool] });
  assert.equal(withTool, Math.ceil(JSON.stringify([tool]).length / 4));
  // A message: 32 bytes of framing, plus 32 per block and its text ("→" is 3 bytes).
  const message = userText(`${"x".repeat(97)}→`);
  assert.equal(messageTokens(message), (32 + 32 + 100) / 4);
  const withMessage = estimateTokens({ system: "", messages: [message, message], tools: [] });
  assert.equal(withMessage, Math.ceil((2 + 2 * 164) / 4));
});

Deno.test("messageTokens() counts tool arguments, results and signatures", () => {
  const call = toolCall("c1"); // id 2 + name 5 + {"command":"ls"} 16
  assert.equal(messageTokens(call), Math.ceil((32 + 32 + 2 + 5 + 16) / 4));
  const result = results("c1", "abcd"); // callId 2 + (32 + 4) per part
  assert.equal(messageTokens(result), Math.ceil((32 + 32 + 2 + 32 + 4) / 4));
  const signed: AssistantMessage = {
    ...answer(""),
    blocks: [{ type: "thinking", thinking: "hm", signature: "s".repeat(400) }],
  };
  assert.equal(messageTokens(signed), Math.ceil((32 + 32 + 2 + 400) / 4));
});

Deno.test("findCut() keeps at least keepRecentTokens and cuts before a prompt or an answer", () => {
  const messages = [userText(LONG), answer(LONG), userText(LONG), answer(LONG)];
  const last = messageTokens(messages[3]!);
  const lastTwo = last + messageTokens(messages[2]!);
  assert.equal(findCut(messages, last), 3);
  assert.equal(findCut(messages, last + 1), 2);
  assert.equal(findCut(messages, lastTwo + 1), 1);
});

Deno.test("findCut() never separates tool results from their call", () => {
  const messages = [userText(LONG), toolCall("c1"), results("c1", LONG), answer("done")];
  // Keeping the last two would start at the results: the cut moves back to the call.
  const needed = messageTokens(messages[3]!) + 1;
  assert.equal(findCut(messages, needed), 1);
});

Deno.test("findCut() returns 0 when the whole conversation is needed to keep enough", () => {
  const messages = [userText(LONG), answer(LONG)];
  assert.equal(findCut(messages, 10_000), 0);
  assert.equal(findCut([userText(LONG)], 0), 0);
});

Deno.test("createRunContext() sends everything while the request fits", async () => {
  const model = fakeModel("summary");
  const compactor = fakeCompactor(100_000, 10);
  const events: RunEvent[] = [];
  const context = createRunContext({
    history: [userText("a"), answer("b")],
    summary: null,
    compactor,
    model,
    emit: (event) => events.push(event),
    signal: new AbortController().signal,
  });
  context.messages.push(userText("c"));
  const prepared = await context.prepare("system", []);
  assert.equal(prepared.messages.length, 3);
  assert.equal(prepared.usage, null);
  assert.equal(model.requests.length, 0);
  assert.deepEqual(events, []);
});

Deno.test("createRunContext() summarises the older part once and sends summary + kept messages", async () => {
  const model = fakeModel("  the summary  ");
  const old = [userText(LONG), answer(LONG)];
  const compactor = fakeCompactor(200, messageTokens(userText("new prompt")));
  const events: RunEvent[] = [];
  const context = createRunContext({
    history: old,
    summary: "earlier summary",
    compactor,
    model,
    emit: (event) => events.push(event),
    signal: new AbortController().signal,
  });
  const prompt = userText("new prompt");
  context.messages.push(prompt);
  const prepared = await context.prepare("system", []);
  assert.deepEqual(compactor.inputs, [{ messages: old, previousSummary: "earlier summary" }]);
  assert.equal(compactor.records.length, 1);
  assert.equal(compactor.records[0]?.keptIndex, 2);
  assert.equal(compactor.records[0]?.summary, "the summary");
  assert.ok((compactor.records[0]?.tokensBefore ?? 0) > 200);
  assert.equal(prepared.messages.length, 2);
  assert.deepEqual(prepared.messages[0], {
    role: "user",
    blocks: [{ type: "text", text: `${SUMMARY_INTRO}\n\nthe summary` }],
  });
  assert.equal(prepared.messages[1], prompt);
  assert.equal(prepared.usage?.inputTokens, 7);
  assert.deepEqual(events.map((event) => event.type), ["compaction"]);

  // At most once per run: a second oversized request is sent as it is.
  context.messages.push(answer(LONG), userText(LONG));
  const again = await context.prepare("system", []);
  assert.equal(model.requests.length, 1);
  assert.equal(again.messages.length, 4);
});

Deno.test("createRunContext() fails with 'compaction failed' and records nothing when the summary fails", async () => {
  const model = fakeModel(new Error("HTTP 500: down"));
  const compactor = fakeCompactor(50, 1);
  const context = createRunContext({
    history: [userText(LONG), answer(LONG)],
    summary: null,
    compactor,
    model,
    emit: () => {},
    signal: new AbortController().signal,
  });
  context.messages.push(userText("next"));
  await assert.rejects(context.prepare("", []), /^Error: compaction failed: HTTP 500: down$/);
  assert.deepEqual(compactor.records, []);
  assert.equal(context.messages.length, 3);
});

Deno.test("createRunContext() rejects an empty summary", async () => {
  const compactor = fakeCompactor(50, 1);
  const context = createRunContext({
    history: [userText(LONG), answer(LONG)],
    summary: null,
    compactor,
    model: fakeModel("   "),
    emit: () => {},
    signal: new AbortController().signal,
  });
  context.messages.push(userText("next"));
  await assert.rejects(
    context.prepare("", []),
    /compaction failed: the model returned an empty summary/,
  );
  assert.deepEqual(compactor.records, []);
});

Deno.test("createRunContext() without a compactor never compacts", async () => {
  const model = fakeModel("summary");
  const context = createRunContext({
    history: [userText(LONG), answer(LONG)],
    summary: "kept summary",
    compactor: undefined,
    model,
    emit: () => {},
    signal: new AbortController().signal,
  });
  const prepared = await context.prepare("", []);
  assert.equal(model.requests.length, 0);
  assert.equal(prepared.messages.length, 3);
  assert.match(JSON.stringify(prepared.messages[0]), /kept summary/);
});

Deno.test("compactNow() summarises however small the conversation, and says when nothing can be", async () => {
  const model = fakeModel("the summary");
  // A window far larger than the conversation: prepare() would send it as it is.
  const compactor = fakeCompactor(1_000_000, messageTokens(answer("short")));
  const events: RunEvent[] = [];
  const context = createRunContext({
    history: [userText("first"), answer("short"), userText("second"), answer("short")],
    summary: null,
    compactor,
    model,
    emit: (event) => events.push(event),
    signal: new AbortController().signal,
  });
  const done = await context.compactNow("system", []);
  assert.equal(done.compacted, true);
  assert.equal(done.usage?.inputTokens, 7);
  assert.equal(compactor.records[0]?.keptIndex, 3);
  assert.deepEqual(events.map((event) => event.type), ["compaction"]);
  assert.equal(context.messages.length, 1);

  const few = createRunContext({
    history: [userText("only")],
    summary: null,
    compactor: fakeCompactor(1_000_000, 1),
    model,
    emit: () => {},
    signal: new AbortController().signal,
  });
  assert.deepEqual(await few.compactNow("system", []), { compacted: false, usage: null });
  const off = createRunContext({
    history: [userText("a"), answer("b"), userText("c"), answer("d")],
    summary: null,
    compactor: undefined,
    model,
    emit: () => {},
    signal: new AbortController().signal,
  });
  assert.deepEqual(await off.compactNow("system", []), { compacted: false, usage: null });
  assert.equal(model.requests.length, 1);
});
