import { deepStrictEqual as assertEquals, strictEqual } from "node:assert/strict";
import type { Message } from "../llm/messages.ts";
import type { ModelRequest } from "../llm/model_events.ts";
import {
  anthropicBody,
  anthropicHeaders,
  anthropicToolId,
  toAnthropicMessages,
} from "./anthropic_request.ts";
import type { ProtocolOptions } from "./protocol.ts";
import { VERSION } from "../base/version.ts";

const OPTIONS: ProtocolOptions = {
  baseUrl: "http://fake.test/v1",
  apiKey: "sk-ant-test",
  headers: {},
  modelId: "claude-test",
};

const TOOL = {
  name: "shell",
  description: "Runs a command.",
  parameters: { type: "object", properties: { command: { type: "string" } } },
};

const CONVERSATION: Message[] = [
  { role: "user", blocks: [{ type: "text", text: "list files" }] },
  {
    role: "assistant",
    blocks: [
      { type: "thinking", thinking: "use shell", signature: "EqQB" },
      { type: "thinking", thinking: "", signature: "opaque", redacted: true },
      { type: "thinking", thinking: "from chat completions" },
      { type: "thinking", thinking: "from responses", signature: '{"type":"reasoning"}' },
      { type: "text", text: "Running it." },
      { type: "tool_call", id: "toolu_1", name: "shell", arguments: { command: "ls" } },
      { type: "tool_call", id: "call|2", name: "shell", arguments: {}, rawArguments: "ls -la" },
    ],
    model: "claude-test",
    stopReason: "tool_use",
    usage: null,
  },
  {
    role: "user",
    blocks: [
      {
        type: "tool_result",
        callId: "toolu_1",
        content: [{ type: "text", text: "a.txt" }, { type: "text", text: "b.txt" }],
        isError: false,
      },
      {
        type: "tool_result",
        callId: "call|2",
        content: [{ type: "text", text: "the tool was not executed: bad JSON" }],
        isError: true,
      },
    ],
  },
  { role: "user", blocks: [{ type: "text", text: "and now?" }] },
];

Deno.test("toAnthropicMessages() replays signed thinking, merges a turn's results and marks the last block for caching", () => {
  assertEquals(toAnthropicMessages(CONVERSATION), [
    { role: "user", content: [{ type: "text", text: "list files" }] },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "use shell", signature: "EqQB" },
        { type: "redacted_thinking", data: "opaque" },
        { type: "text", text: "Running it." },
        { type: "tool_use", id: "toolu_1", name: "shell", input: { command: "ls" } },
        { type: "tool_use", id: "call_2", name: "shell", input: {} },
      ],
    },
    {
      role: "user",
      content: [
        {
          type: "tool_result",
          "tool_use_id": "toolu_1",
          content: [{ type: "text", text: "a.txt" }, { type: "text", text: "b.txt" }],
          "is_error": false,
        },
        {
          type: "tool_result",
          "tool_use_id": "call_2",
          content: [{ type: "text", text: "the tool was not executed: bad JSON" }],
          "is_error": true,
        },
        { type: "text", text: "and now?", "cache_control": { type: "ephemeral" } },
      ],
    },
  ]);
});

Deno.test("anthropicToolId() replaces characters Anthropic rejects", () => {
  strictEqual(anthropicToolId("call_abc-1"), "call_abc-1");
  strictEqual(anthropicToolId("call|fc.1"), "call_fc_1");
});

Deno.test("anthropicBody() sends system, max_tokens 8192, tools with input_schema and the sampling settings", () => {
  const request: ModelRequest = {
    system: "Be brief.",
    messages: CONVERSATION.slice(0, 1),
    tools: [TOOL],
  };
  assertEquals(anthropicBody({ ...OPTIONS, temperature: 0.2, topP: 0.9 }, request), {
    model: "claude-test",
    "max_tokens": 8192,
    system: [{ type: "text", text: "Be brief.", "cache_control": { type: "ephemeral" } }],
    messages: [{
      role: "user",
      content: [{ type: "text", text: "list files", "cache_control": { type: "ephemeral" } }],
    }],
    tools: [{ name: "shell", description: "Runs a command.", "input_schema": TOOL.parameters }],
    stream: true,
    temperature: 0.2,
    "top_p": 0.9,
  });
});

Deno.test("anthropicBody() with thinking sends the level's budget, raises max_tokens and drops temperature", () => {
  const request: ModelRequest = { system: "", messages: CONVERSATION.slice(0, 1), tools: [] };
  const cases = [["low", 2048], ["medium", 4096], ["high", 16384], ["20000", 20000]] as const;
  for (const [level, budget] of cases) {
    const body = anthropicBody(
      { ...OPTIONS, maxTokens: 4000, temperature: 0.2, topP: 0.5, thinking: level },
      request,
    );
    assertEquals(body.thinking, { type: "enabled", "budget_tokens": budget });
    strictEqual(body.max_tokens, 4000 + budget);
    strictEqual("temperature" in body, false);
    strictEqual("top_p" in body, false);
    strictEqual("system" in body, false);
  }
  strictEqual("thinking" in anthropicBody({ ...OPTIONS, thinking: "off" }, request), false);
});

Deno.test("anthropicHeaders() sends x-api-key, anthropic-version and User-Agent; configured headers win", () => {
  const headers = anthropicHeaders({
    ...OPTIONS,
    headers: { "x-team": "research", "anthropic-version": "2024-01-01" },
  });
  strictEqual(headers.get("x-api-key"), "sk-ant-test");
  strictEqual(headers.get("anthropic-version"), "2024-01-01");
  strictEqual(headers.get("user-agent"), `rienda/${VERSION}`);
  strictEqual(headers.get("x-team"), "research");
  strictEqual(headers.get("authorization"), null);
  strictEqual(anthropicHeaders({ ...OPTIONS, apiKey: null }).get("x-api-key"), null);
  strictEqual(anthropicHeaders(OPTIONS).get("anthropic-version"), "2023-06-01");
});
