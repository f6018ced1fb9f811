/**
 * A minimal SSE client for the fake provider's self-tests: post a JSON body,
 * read the whole answer, split it into events.
 *
 * @module
 */

import { parseJsonOrNull } from "./json.ts";

/** One event as read back: its `event:` name, raw `data:` text and parsed JSON (or null). */
export interface ReadEvent {
  readonly event?: string;
  readonly data: string;
  readonly json: unknown;
}

/** A whole answer of the fake provider. */
export interface ReadAnswer {
  readonly status: number;
  readonly headers: Headers;
  /** The raw body text. */
  readonly text: string;
  /** The body split into SSE events (empty for a JSON error body). */
  readonly events: ReadEvent[];
  /** The body parsed as JSON, or null (for streams). */
  readonly json: unknown;
  /** Milliseconds from sending to the response headers. */
  readonly headersAfterMs: number;
  /** Milliseconds from sending to the end of the body. */
  readonly doneAfterMs: number;
}

/** Splits SSE text into events (`event:` and `data:` fields; other lines are ignored). */
export function parseSseText(text: string): ReadEvent[] {
  const events: ReadEvent[] = [];
  for (const block of text.split("\n\n")) {
    if (block.trim() === "") continue;
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("event: ")) event = line.slice("event: ".length);
      if (line.startsWith("data: ")) data.push(line.slice("data: ".length));
    }
    const joined = data.join("\n");
    const json = parseJsonOrNull(joined);
    events.push(event === undefined ? { data: joined, json } : { event, data: joined, json });
  }
  return events;
}

/** Posts `body` as JSON to `url` and reads the whole answer. */
export async function postForEvents(
  url: string,
  body: unknown = { model: "fake-model" },
  headers: Record<string, string> = {},
): Promise<ReadAnswer> {
  const started = performance.now();
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const headersAfterMs = performance.now() - started;
  const text = await response.text();
  const doneAfterMs = performance.now() - started;
  const isStream = response.headers.get("content-type")?.startsWith("text/event-stream") ?? false;
  return {
    status: response.status,
    headers: response.headers,
    text,
    events: isStream ? parseSseText(text) : [],
    json: isStream ? null : parseJsonOrNull(text),
    headersAfterMs,
    doneAfterMs,
  };
}
