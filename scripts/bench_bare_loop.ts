/**
 * The floor of a tool turn for `scripts/bench_ratios.ts`: a bare Deno loop
 * that does what one turn of rienda must do and nothing else. Each round posts
 * the conversation so far to an OpenAI Chat Completions endpoint (streaming),
 * reads the SSE to its end and parses each event, and, while the answer asks
 * for a tool call, spawns `sh -c <command>` and appends the call and its
 * output to the conversation. No config, agent, session, hook or masking.
 *
 * `deno run -A scripts/bench_bare_loop.ts <base_url>` (the fake provider's
 * `/v1` URL), against a script of tool-call turns that ends with a text turn.
 *
 * @module
 */

interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

const baseUrl = Deno.args[0];
if (baseUrl === undefined) throw new Error("usage: bench_bare_loop.ts <base_url>");

const tools = [{
  type: "function",
  function: {
    name: "shell",
    description: "Runs a shell command with `sh -c` and returns its output.",
    parameters: {
      type: "object",
      properties: { command: { type: "string" } },
      required: ["command"],
    },
  },
}];
const messages: unknown[] = [
  { role: "system", content: "You answer briefly." },
  { role: "user", content: "go" },
];
const decoder = new TextDecoder();

/** One streamed request: the text and the tool calls of the answer. */
async function turn(): Promise<{ text: string; calls: ToolCall[] }> {
  const response = await fetch(`${baseUrl}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer test-key" },
    body: JSON.stringify({ model: "fake-model", messages, tools, stream: true }),
  });
  if (!response.ok || response.body === null) throw new Error(`HTTP ${response.status}`);
  let text = "";
  let buffer = "";
  const calls: ToolCall[] = [];
  for await (const chunk of response.body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf("\n\n")) !== -1) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event.split("\n").find((line) => line.startsWith("data: "))?.slice(6);
      if (data === undefined || data === "[DONE]") continue;
      const delta = JSON.parse(data).choices?.[0]?.delta ?? {};
      text += delta.content ?? "";
      for (const part of delta.tool_calls ?? []) {
        const call = calls[part.index] ??= { id: "", name: "", arguments: "" };
        call.id ||= part.id ?? "";
        call.name ||= part.function?.name ?? "";
        call.arguments += part.function?.arguments ?? "";
      }
    }
  }
  return { text, calls };
}

while (true) {
  const { text, calls } = await turn();
  if (calls.length === 0) break;
  messages.push({
    role: "assistant",
    content: text || null,
    tool_calls: calls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: call.arguments },
    })),
  });
  for (const call of calls) {
    const { command } = JSON.parse(call.arguments);
    const output = await new Deno.Command("sh", {
      args: ["-c", command],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const content = decoder.decode(output.stdout) + decoder.decode(output.stderr);
    messages.push({ role: "tool", tool_call_id: call.id, content });
  }
}
