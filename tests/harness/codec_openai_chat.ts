/**
 * OpenAI Chat Completions as the vendor streams it: `data: {chunk}` lines,
 * a finish chunk, a usage chunk with `choices: []`, then `data: [DONE]`.
 *
 * @module
 */

import {
  type Codec,
  jsonEvent,
  openAiErrorKind,
  type SseEvent,
  type TurnContext,
} from "./codec.ts";
import { splitText, type Turn } from "./turn.ts";

/** The Chat Completions codec (`POST /v1/chat/completions`). */
export const openAiChatCodec: Codec = {
  protocol: "openai_chat_completions",
  path: "/v1/chat/completions",
  events: chatEvents,
  errorBody(status, message) {
    return { error: { message, ...openAiErrorKind(status), param: null } };
  },
};

function chatEvents(turn: Turn, context: TurnContext): SseEvent[] {
  const id = `chatcmpl-fake${context.turnNumber}`;
  const created = Math.floor(Date.now() / 1000);
  const base = { id, object: "chat.completion.chunk", created, model: context.model };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
    ...base,
    system_fingerprint: "fp_fake",
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });
  const chunks = turn.chunks ?? 1;
  const events: SseEvent[] = [jsonEvent(chunk({ role: "assistant", content: "" }))];
  for (const piece of splitText(turn.thinking ?? "", chunks)) {
    events.push(jsonEvent(chunk({ reasoning_content: piece })));
  }
  for (const piece of splitText(turn.text ?? "", chunks)) {
    events.push(jsonEvent(chunk({ content: piece })));
  }
  context.calls.forEach((call, index) => {
    const head = {
      index,
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: "" },
    };
    events.push(jsonEvent(chunk({ tool_calls: [head] })));
    for (const fragment of splitText(call.argumentText, call.fragments)) {
      events.push(jsonEvent(chunk({ tool_calls: [{ index, function: { arguments: fragment } }] })));
    }
  });
  const finishReason = turn.finishReason ?? (context.calls.length > 0 ? "tool_calls" : "stop");
  events.push(jsonEvent(chunk({}, finishReason), { final: true }));
  const usage = context.usage;
  if (usage !== null) {
    const prompt = usage.input + usage.cachedInput;
    events.push(jsonEvent({
      ...base,
      choices: [],
      usage: {
        prompt_tokens: prompt,
        completion_tokens: usage.output,
        total_tokens: prompt + usage.output,
        prompt_tokens_details: { cached_tokens: usage.cachedInput, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: usage.reasoning, audio_tokens: 0 },
      },
    }, { final: true }));
  }
  events.push({ data: "[DONE]", final: true });
  return events;
}
