import { deepStrictEqual as assertEquals, strictEqual } from "node:assert/strict";
import type { Message } from "../llm/messages.ts";
import type { ModelRequest } from "../llm/model_events.ts";
import {
  reasoningItemOf,
  responsesBody,
  responsesHeaders,
  toResponsesInput,
} from "./openai_responses_request.ts";
import type { ProtocolOptions } from "./protocol.ts";
import { VERSION } from "../base/version.ts";

const OPTIONS: ProtocolOptions = {
  baseUrl: "http://fake.test/v1",
  apiKey: "sk-test",
  headers: {},
  modelId: "gpt-test",
};

const REASONING = {
  type: "reasoning",
  id: "rs_1",
  "encrypted_content": "gAAAA-encrypted",
  summary: [{ type: "summary_text", text: "Plan: list." }],
};

const CONVERSATION: Message[] = [
  { role: "user", blocks: [{ type: "text", text: "list files" }] },
  {
    role: "assistant",
    blocks: [
      { type: "thinking", thinking: "Plan: list.", signature: JSON.stringify(REASONING) },
      { type: "thinking", thinking: "anthropic thinking", signature: "EqQB" },
      { type: "thinking", thinking: "chat reasoning" },
      { type: "text", text: "Running ls.", signature: "msg_1" },
      { type: "tool_call", id: "call_1", name: "shell", arguments: { command: "ls" } },
      { type: "tool_call", id: "call_2", name: "shell", arguments: {}, rawArguments: "ls -la" },
    ],
    model: "gpt-test",
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
    blocks: [{ type: "text", text: "Two files.", signature: "not-an-item-id" }],
    model: "gpt-test",
    stopReason: "end_turn",
    usage: null,
  },
];

Deno.test("toResponsesInput() replays reasoning items and message ids, and answers calls with outputs", () => {
  assertEquals(toResponsesInput(CONVERSATION), [
    { type: "message", role: "user", content: [{ type: "input_text", text: "list files" }] },
    REASONING,
    {
      type: "message",
      role: "assistant",
      content: [{ type: "output_text", text: "Running ls.", annotations: [] }],
      status: "completed",
      id: "msg_1",
    },
    { type: "function_call", "call_id": "call_1", name: "shell", arguments: '{"command":"ls"}' },
    { type: "function_call", "call_id": "call_2", name: "shell", arguments: "ls -la" },
    { type: "function_call_output", "call_id": "call_1", output: "a.txt\nb.txt" },
    {
      type: "function_call_output",
      "call_id": "call_2",
      output: "the tool was not executed: bad JSON",
    },
    {
      type: "message",
      role: "assistant",
      content: [{ type: "output_text", text: "Two files.", annotations: [] }],
      status: "completed",
    },
  ]);
});

Deno.test("reasoningItemOf() skips reasoning that cannot be replayed without storage", () => {
  const unencrypted = JSON.stringify({ type: "reasoning", id: "rs_2", summary: [] });
  strictEqual(
    reasoningItemOf({ type: "thinking", thinking: "", signature: unencrypted }),
    undefined,
  );
  strictEqual(reasoningItemOf({ type: "thinking", thinking: "", signature: "{broken" }), undefined);
  strictEqual(reasoningItemOf({ type: "thinking", thinking: "x" }), undefined);
});

Deno.test("responsesBody() sends instructions, input, tools, store false and the model settings", () => {
  const request: ModelRequest = {
    system: "Be brief.",
    messages: CONVERSATION.slice(0, 1),
    tools: [{ name: "shell", description: "Runs a command.", parameters: { type: "object" } }],
  };
  assertEquals(
    responsesBody({ ...OPTIONS, maxTokens: 1000, temperature: 0.3, topP: 0.8 }, request),
    {
      model: "gpt-test",
      instructions: "Be brief.",
      input: [{
        type: "message",
        role: "user",
        content: [{ type: "input_text", text: "list files" }],
      }],
      tools: [{
        type: "function",
        name: "shell",
        description: "Runs a command.",
        parameters: { type: "object" },
        strict: false,
      }],
      stream: true,
      store: false,
      "max_output_tokens": 1000,
      temperature: 0.3,
      "top_p": 0.8,
    },
  );
});

Deno.test("responsesBody() with thinking asks for the effort, a summary and the encrypted reasoning", () => {
  const request: ModelRequest = { system: "", messages: CONVERSATION.slice(0, 1), tools: [] };
  const body = responsesBody({ ...OPTIONS, thinking: "high" }, request);
  assertEquals(body.reasoning, { effort: "high", summary: "auto" });
  assertEquals(body.include, ["reasoning.encrypted_content"]);
  strictEqual("instructions" in body, false);
  const off = responsesBody({ ...OPTIONS, thinking: "off" }, request);
  strictEqual("reasoning" in off, false);
  strictEqual("include" in off, false);
});

Deno.test("responsesHeaders() sends a Bearer key and User-Agent; configured headers win", () => {
  const headers = responsesHeaders({ ...OPTIONS, headers: { "x-team": "research" } });
  strictEqual(headers.get("authorization"), "Bearer sk-test");
  strictEqual(headers.get("user-agent"), `rienda/${VERSION}`);
  strictEqual(headers.get("x-team"), "research");
  strictEqual(responsesHeaders({ ...OPTIONS, apiKey: null }).get("authorization"), null);
});
