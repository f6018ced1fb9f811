/**
 * The SSE parser for `deno task bench`: one long event fed in 16 KiB chunks
 * (about what the network hands over), measured in this process, and the
 * scenarios of a whole run whose answer is one long event.
 *
 * @module
 */

import { SseParseStream } from "../src/providers/sse.ts";
import type { Scenario } from "./bench.ts";

const CHUNK_CHARS = 16 * 1024;

/** The time to parse one `data:` event of `chars` characters, in ms. */
async function parseOneEvent(chars: number): Promise<number> {
  const text = `data: ${"x".repeat(chars)}\n\n`;
  const chunks: string[] = [];
  for (let start = 0; start < text.length; start += CHUNK_CHARS) {
    chunks.push(text.slice(start, start + CHUNK_CHARS));
  }
  const started = performance.now();
  // The limits are raised: this measures the parser, not the caps.
  const parser = new SseParseStream({ maxEventChars: 2 ** 30, maxStreamChars: 2 ** 30 });
  for await (const _ of ReadableStream.from(chunks).pipeThrough(parser)) {
    // drain
  }
  return performance.now() - started;
}

/** Lines giving the parse time of a 4 MiB and a 40 MB event. */
export async function measureSseParser(): Promise<string[]> {
  const lines: string[] = [];
  for (const [label, chars] of [["4 MiB", 4 * 1024 * 1024], ["40 MB", 40_000_000]] as const) {
    lines.push(`one ${label} event: ${(await parseOneEvent(chars)).toFixed(0)} ms`);
  }
  return lines;
}

function oneEventAnswer(chars: number): string {
  const delta = { model: "m", choices: [{ index: 0, delta: { content: "x".repeat(chars) } }] };
  const end = { model: "m", choices: [{ index: 0, delta: {}, finish_reason: "stop" }] };
  return `data: ${JSON.stringify(delta)}\n\ndata: ${JSON.stringify(end)}\n\ndata: [DONE]\n\n`;
}

/** Whole runs whose answer arrives as one SSE event of 4 MiB and of 30 MiB. */
export function sseScenarios(): Scenario[] {
  return [["4 MiB", 4], ["30 MiB", 30]].map(([label, mebi]) => ({
    name: `a ${label} answer in one SSE event`,
    turns: () => [{ rawStream: { chunks: [oneEventAnswer(Number(mebi) * 1024 * 1024)] } }],
    args: ["run", "-a", "coder", "--no-session", "-p", "hi"],
  }));
}
