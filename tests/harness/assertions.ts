/**
 * Checks shared by the end-to-end tests: the stderr contract (`session: <id>`
 * first, `rienda: …` last), plain output, and the session file format of
 * docs/formats.md (header, id/parentId chain, createdAt).
 *
 * @module
 */

import assert from "node:assert/strict";
import type { FakeProvider } from "./fake_provider.ts";
import type { TestEnv } from "./env.ts";

/** A session id: 26 characters of lowercase Crockford base32. */
export const SESSION_ID_REGEXP = /^[0-9a-hjkmnp-tv-z]{26}$/;

/** A retry line on stderr: `retrying in 1.2s: <error>`. */
export const RETRY_LINE_REGEXP = /^retrying in (\d+\.\d)s: (.+)$/;

// deno-lint-ignore no-control-regex
const ANSI_REGEXP = /\x1b\[/;

/** The lines of an output (the final newline ends the last line, it does not add one). */
export function linesOf(text: string): string[] {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** The session id of the first stderr line, which must be `session: <id>`. */
export function sessionIdOf(stderr: string): string {
  const first = linesOf(stderr)[0] ?? "";
  const match = /^session: (.*)$/.exec(first);
  assert.ok(match, `the first stderr line is not "session: <id>": ${JSON.stringify(first)}`);
  const id = match[1] ?? "";
  assert.match(id, SESSION_ID_REGEXP);
  return id;
}

/** The `retrying in …` lines of stderr as `{seconds, error}`. */
export function retryLines(stderr: string): { seconds: number; error: string }[] {
  return linesOf(stderr).flatMap((line) => {
    const match = RETRY_LINE_REGEXP.exec(line);
    return match ? [{ seconds: Number(match[1]), error: match[2] ?? "" }] : [];
  });
}

/** The last line of stderr, which for a failed run is `rienda: <message>`. */
export function lastLine(stderr: string): string {
  return linesOf(stderr).at(-1) ?? "";
}

/** Fails when a text holds an ANSI escape sequence. */
export function assertNoAnsi(text: string): void {
  assert.ok(!ANSI_REGEXP.test(text), `unexpected ANSI escape in ${JSON.stringify(text)}`);
}

/**
 * Fails unless the run failed before any request: no request recorded, no
 * session file written, no `session:` line.
 */
export async function assertNothingSent(
  provider: FakeProvider,
  env: TestEnv,
  stderr: string,
): Promise<void> {
  assert.equal(provider.requests.length, 0, "a request was sent");
  assert.deepEqual(await env.sessionFiles(), [], "a session file was written");
  assert.ok(!stderr.startsWith("session: "), `a session started: ${stderr}`);
}

/** A session file checked against the format, with per-entry bookkeeping removed. */
export interface CheckedSession {
  readonly header: Record<string, unknown>;
  /** The entries after the header without `id`, `parentId` and `createdAt`. */
  readonly entries: Record<string, unknown>[];
}

/**
 * Checks the header (`kind`, `version: 1`, `id`, `createdAt`, `agent`,
 * `model`, absolute `workdir`) and that the entries form one chain: unique
 * string ids, `parentId` empty for the first and the previous id after,
 * ISO `createdAt`.
 */
export function checkSession(lines: readonly Record<string, unknown>[]): CheckedSession {
  const [header, ...rest] = lines;
  assert.ok(header, "the session file is empty");
  assert.equal(header.kind, "header");
  assert.equal(header.version, 1);
  assert.match(String(header.id), SESSION_ID_REGEXP);
  assertIsoDate(header.createdAt);
  assert.equal(typeof header.agent, "string");
  assert.equal(typeof header.model, "string");
  assert.ok(String(header.workdir).startsWith("/"), `workdir not absolute: ${header.workdir}`);
  const seen = new Set<string>();
  let previous = "";
  const entries = rest.map((line, index) => {
    const { id, parentId, createdAt, ...entry } = line;
    assert.equal(typeof id, "string", `entry ${index + 1} has no string id`);
    assert.ok(!seen.has(String(id)), `entry ${index + 1} repeats id ${id}`);
    seen.add(String(id));
    assert.equal(parentId, previous, `entry ${index + 1} does not follow the previous entry`);
    assertIsoDate(createdAt);
    previous = String(id);
    return entry;
  });
  return { header, entries };
}

function assertIsoDate(value: unknown): void {
  assert.equal(typeof value, "string");
  assert.ok(!Number.isNaN(Date.parse(String(value))), `not a date: ${value}`);
}

/** A stored user message holding one prompt. */
export function userPromptEntry(text: string): Record<string, unknown> {
  return { kind: "message", role: "user", blocks: [{ type: "text", text }] };
}

/** The stored usage of a turn that reported the fake provider's default usage. */
export const DEFAULT_RESPONSE_USAGE = {
  inputTokens: 10,
  outputTokens: 5,
  reasoningTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
};

/** A stored assistant message of the fake model (`responseModel: "fake-model"`). */
export function assistantEntry(
  blocks: readonly unknown[],
  stopReason: string,
  usage: unknown = DEFAULT_RESPONSE_USAGE,
): Record<string, unknown> {
  return {
    kind: "message",
    role: "assistant",
    blocks,
    responseModel: "fake-model",
    responseStopReason: stopReason,
    responseUsage: usage,
  };
}

/** A stored `tool_call` block. */
export function toolCallBlock(id: string, name: string, args: unknown): Record<string, unknown> {
  return { type: "tool_call", toolCallId: id, toolCallName: name, toolCallArguments: args };
}

/** A stored `tool_result` block. */
export function toolResultBlock(
  id: string,
  text: string,
  isError: boolean,
): Record<string, unknown> {
  return {
    type: "tool_result",
    toolResultCallId: id,
    toolResult: [{ type: "text", text }],
    toolResultIsError: isError,
  };
}

/** A stored user message holding a turn's tool results. */
export function toolResultsEntry(...blocks: Record<string, unknown>[]): Record<string, unknown> {
  return { kind: "message", role: "user", blocks };
}

/** The entry a run writes just before the tool of call `callId` starts. */
export function toolStartEntry(callId: string): Record<string, unknown> {
  return { kind: "tool_start", callId };
}
