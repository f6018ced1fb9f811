import { deepStrictEqual } from "node:assert/strict";
import type { AssistantMessage } from "../llm/messages.ts";
import { type Chained, done, type HookRunner, NO_HOOKS } from "./hooks.ts";
import { applyResponseHooks, requestSnapshot } from "./response_hooks.ts";

function rewriting(text: string | null, thinking: string | null): HookRunner {
  return {
    ...NO_HOOKS,
    has: (point) => point === "afterModelResponse",
    afterModelResponse: (payload) =>
      Promise.resolve(
        done({ text: text ?? payload.text, thinking: thinking ?? payload.thinking }),
      ),
  };
}

/** The message of a finished chain. */
function value(chained: Chained<AssistantMessage>): AssistantMessage {
  if (chained.kind !== "done") throw new Error(`the chain ended ${chained.kind}`);
  return chained.value;
}

const message: AssistantMessage = {
  role: "assistant",
  model: "m",
  stopReason: "tool_use",
  usage: null,
  blocks: [
    { type: "thinking", thinking: "hmm", signature: "sig" },
    { type: "text", text: "card 1234" },
    { type: "tool_call", id: "c1", name: "shell", arguments: { command: "ls" } },
  ],
};

Deno.test("applyResponseHooks() replaces the text and keeps other blocks in place", async () => {
  const out = value(
    await applyResponseHooks(message, rewriting("card [redacted]", null), AbortSignal.any([])),
  );
  deepStrictEqual(out.blocks, [
    { type: "thinking", thinking: "hmm", signature: "sig" },
    { type: "text", text: "card [redacted]" },
    { type: "tool_call", id: "c1", name: "shell", arguments: { command: "ls" } },
  ]);
});

Deno.test("applyResponseHooks() drops the signature of rewritten thinking", async () => {
  const out = value(
    await applyResponseHooks(message, rewriting(null, "clean"), AbortSignal.any([])),
  );
  deepStrictEqual(out.blocks[0], { type: "thinking", thinking: "clean" });
  deepStrictEqual(out.blocks[1], message.blocks[1]);
});

Deno.test("applyResponseHooks() inserts new text before the tool calls", async () => {
  const toolOnly: AssistantMessage = { ...message, blocks: [message.blocks[2]!] };
  const out = value(
    await applyResponseHooks(toolOnly, rewriting("note", null), AbortSignal.any([])),
  );
  deepStrictEqual(out.blocks.map((block) => block.type), ["text", "tool_call"]);
});

Deno.test("applyResponseHooks() returns the message untouched without such hooks", async () => {
  const out = await applyResponseHooks(message, NO_HOOKS, AbortSignal.any([]));
  deepStrictEqual(out, done(message));
});

Deno.test("requestSnapshot() shows tool results as their text", () => {
  const snapshot = requestSnapshot([
    { role: "user", blocks: [{ type: "text", text: "go" }] },
    message,
    {
      role: "user",
      blocks: [{
        type: "tool_result",
        callId: "c1",
        content: [{ type: "text", text: "a.txt" }],
        isError: false,
      }],
    },
  ]);
  deepStrictEqual(snapshot, [
    { role: "user", text: "go" },
    { role: "assistant", text: "card 1234" },
    { role: "user", text: "a.txt" },
  ]);
});
