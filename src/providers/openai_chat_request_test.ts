import { deepStrictEqual as assertEquals, ok, strictEqual } from "node:assert/strict";
import type { Message } from "../llm/messages.ts";
import type { ModelRequest } from "../llm/model_events.ts";
import { fakeFetch, sseText } from "../../tests/_testing/fake_fetch.ts";
import {
  chatCompletionsBody,
  chatCompletionsHeaders,
  streamChatCompletions,
} from "./openai_chat.ts";
import type { ProtocolOptions } from "./protocol.ts";
import { VERSION } from "../base/version.ts";

const OPTIONS: ProtocolOptions = {
  baseUrl: "http://fake.test/v1",
  apiKey: "sk-test",
  headers: {},
  modelId: "fake-model",
};

const REQUEST: ModelRequest = {
  system: "You answer briefly.",
  messages: [{ role: "user", blocks: [{ type: "text", text: "hi" }] }],
  tools: [],
};

const CONVERSATION: Message[] = [
  { role: "user", blocks: [{ type: "text", text: "list files" }] },
  {
    role: "assistant",
    blocks: [
      { type: "thinking", thinking: "use shell", signature: "sig" },
      { type: "tool_call", id: "call_1", name: "shell", arguments: { command: "ls" } },
      { type: "tool_call", id: "call_2", name: "shell", arguments: {}, rawArguments: "ls -la" },
    ],
    model: "fake-model",
    stopReason: "tool_use",
    usage: null,
  },
  {
    role: "user",
    blocks: [
      {
        type: "tool_result",
        callId: "call_1",
        content: [{ type: "text", text: "a.txt" }, { type: "text", text: "b.txt" }],
        isError: false,
      },
      {
        type: "tool_result",
        callId: "call_2",
        content: [{ type: "text", text: "the tool was not executed: bad JSON" }],
        isError: true,
      },
    ],
  },
  {
    role: "assistant",
    blocks: [{ type: "text", text: "Two files." }],
    model: "fake-model",
    stopReason: "end_turn",
    usage: null,
  },
  { role: "user", blocks: [{ type: "text", text: "thanks" }] },
];

const SHELL_TOOL = {
  name: "shell",
  description: "Runs a command.",
  parameters: { type: "object", properties: { command: { type: "string" } } },
};

Deno.test("chatCompletionsBody() sends the conversation, tools and settings", () => {
  const body = chatCompletionsBody(
    { ...OPTIONS, maxTokens: 512, temperature: 0.2, topP: 0.9, thinking: "high" },
    { system: "Be brief.", messages: CONVERSATION, tools: [SHELL_TOOL] },
  );
  assertEquals(body, {
    model: "fake-model",
    messages: [
      { role: "system", content: "Be brief." },
      { role: "user", content: "list files" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "call_1",
            type: "function",
            function: { name: "shell", arguments: '{"command":"ls"}' },
          },
          { id: "call_2", type: "function", function: { name: "shell", arguments: "ls -la" } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "a.txt\nb.txt" },
      { role: "tool", tool_call_id: "call_2", content: "the tool was not executed: bad JSON" },
      { role: "assistant", content: "Two files." },
      { role: "user", content: "thanks" },
    ],
    tools: [{ type: "function", function: SHELL_TOOL }],
    stream: true,
    stream_options: { include_usage: true },
    max_tokens: 512,
    temperature: 0.2,
    top_p: 0.9,
    reasoning_effort: "high",
  });
});

Deno.test("chatCompletionsBody() omits tools and unset settings, and can send max_completion_tokens", () => {
  const body = chatCompletionsBody(
    { ...OPTIONS, maxTokens: 100, maxTokensField: "max_completion_tokens", thinking: "off" },
    REQUEST,
  );
  assertEquals(body, {
    model: "fake-model",
    messages: [
      { role: "system", content: "You answer briefly." },
      { role: "user", content: "hi" },
    ],
    stream: true,
    stream_options: { include_usage: true },
    max_completion_tokens: 100,
  });
});

Deno.test("chatCompletionsHeaders() sends rienda's headers, the key, then the provider's", () => {
  const headers = chatCompletionsHeaders({
    ...OPTIONS,
    headers: { "X-Team": "research", "User-Agent": "custom/1" },
  });
  assertEquals(Object.fromEntries(headers), {
    "accept": "text/event-stream",
    "authorization": "Bearer sk-test",
    "content-type": "application/json",
    "user-agent": "custom/1",
    "x-team": "research",
  });
  const keyless = chatCompletionsHeaders({ ...OPTIONS, apiKey: null });
  strictEqual(keyless.get("authorization"), null);
  strictEqual(keyless.get("user-agent"), `rienda/${VERSION}`);
});

Deno.test("streamChatCompletions() posts the body and headers to {base}/chat/completions", async () => {
  const stream = sseText([{
    choices: [{ index: 0, delta: { content: "x" }, finish_reason: "stop" }],
  }]);
  const fake = fakeFetch([{ kind: "sse", chunks: [stream] }]);
  const options = { ...OPTIONS, baseUrl: "http://fake.test/v1/", fetch: fake.fetch };
  await Array.fromAsync(streamChatCompletions(options, REQUEST, new AbortController().signal));
  const request = fake.requests[0];
  ok(request !== undefined);
  assertEquals([request.method, request.url], ["POST", "http://fake.test/v1/chat/completions"]);
  assertEquals(request.body, chatCompletionsBody(options, REQUEST));
  assertEquals(
    Object.fromEntries(request.headers),
    Object.fromEntries(chatCompletionsHeaders(options)),
  );
});
