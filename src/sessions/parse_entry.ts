/**
 * The typed boundary of session lines: a decoded JSON value → a header or an
 * entry, checked field by field (never cast).
 *
 * @module
 */

import type {
  Entry,
  EntryBlock,
  EntryUsage,
  HeaderEntry,
  HookDenialEntry,
  MessageEntry,
  UnknownEntry,
} from "./entries.ts";
import { isRecord } from "../base/unknown.ts";

/** A decoded line that is not a valid entry; `field` names the offending field. */
export class InvalidEntryError extends Error {
  /** The dotted path of the offending field, or "" for the whole line. */
  readonly field: string;

  constructor(field: string, problem: string) {
    super(field === "" ? problem : `${field}: ${problem}`);
    this.name = "InvalidEntryError";
    this.field = field;
  }
}

type Fields = Readonly<Record<string, unknown>>;

const KNOWN_KINDS: ReadonlySet<string> = new Set([
  "message",
  "compaction",
  "agent",
  "model",
  "thinking",
  "leaf",
  "title",
  "tool_start",
  "hook_denial",
  "hook_stop",
  "failure",
]);

/**
 * The header of a session file from its decoded first line.
 *
 * @throws {InvalidEntryError} when the value is not a version 1 header
 */
export function parseHeader(value: unknown): HeaderEntry {
  const fields = record(value, "");
  if (fields.kind !== "header") {
    throw new InvalidEntryError(
      "kind",
      `the first line must be the header (found ${show(fields.kind)})`,
    );
  }
  if (fields.version !== 1) {
    throw new InvalidEntryError(
      "version",
      `unsupported session format version ${show(fields.version)} (this rienda reads version 1)`,
    );
  }
  return {
    kind: "header",
    version: 1,
    id: nonEmpty(fields, "id"),
    createdAt: string(fields, "createdAt"),
    agent: string(fields, "agent"),
    ...agentFileOf(fields),
    model: string(fields, "model"),
    workdir: string(fields, "workdir"),
    ...parentOf(fields),
  };
}

/** The optional link of a subagent's header to its parent session and call. */
function parentOf(fields: Fields): { parentSession?: string; parentCall?: string } {
  if (fields.parentSession === undefined && fields.parentCall === undefined) return {};
  return {
    parentSession: nonEmpty(fields, "parentSession"),
    parentCall: nonEmpty(fields, "parentCall"),
  };
}

/**
 * An entry from a decoded line after the header. Kinds this version does not
 * know become `unknown` entries that keep the line as read.
 *
 * @throws {InvalidEntryError} when a known kind lacks a field or has a wrong type
 */
export function parseEntry(value: unknown): Entry {
  const fields = record(value, "");
  const kind = string(fields, "kind");
  if (kind === "header") {
    throw new InvalidEntryError("kind", "a header is only allowed on the first line");
  }
  if (!KNOWN_KINDS.has(kind)) return unknownEntry(fields);
  const base = { id: nonEmpty(fields, "id"), parentId: string(fields, "parentId") };
  const createdAt = string(fields, "createdAt");
  switch (kind) {
    case "message":
      assertMessageEntry(fields);
      return fields;
    case "compaction":
      return {
        kind,
        ...base,
        createdAt,
        summary: string(fields, "summary"),
        keptId: string(fields, "keptId"),
        tokensBefore: count(fields.tokensBefore, "tokensBefore"),
      };
    case "agent":
      return { kind, ...base, createdAt, agent: nonEmpty(fields, "agent"), ...agentFileOf(fields) };
    case "model":
      return { kind, ...base, createdAt, model: nonEmpty(fields, "model") };
    case "thinking":
      return { kind, ...base, createdAt, thinking: string(fields, "thinking") };
    case "leaf":
      return { kind, ...base, createdAt, targetId: string(fields, "targetId") };
    case "title":
      return { kind, ...base, createdAt, title: string(fields, "title") };
    case "tool_start":
      return { kind, ...base, createdAt, callId: nonEmpty(fields, "callId") };
    case "failure":
      return { kind, ...base, createdAt, error: string(fields, "error") };
    case "hook_denial":
      return { kind, ...base, createdAt, ...hookDenialOf(fields) };
    case "hook_stop":
      return {
        kind,
        ...base,
        createdAt,
        point: nonEmpty(fields, "point"),
        hook: nonEmpty(fields, "hook"),
        reason: string(fields, "reason"),
        ...(fields.callId === undefined ? {} : { callId: nonEmpty(fields, "callId") }),
      };
    default:
      return unknownEntry(fields);
  }
}

/** The fields of a `hook_denial` entry. */
function hookDenialOf(
  fields: Fields,
): Omit<HookDenialEntry, "id" | "parentId" | "createdAt" | "kind"> {
  const outcome = fields.outcome;
  if (outcome !== "deny" && outcome !== "failed_closed") {
    throw new InvalidEntryError("outcome", 'must be "deny" or "failed_closed"');
  }
  return {
    point: nonEmpty(fields, "point"),
    hook: nonEmpty(fields, "hook"),
    outcome,
    ...(fields.reason === undefined ? {} : { reason: string(fields, "reason") }),
    ...(fields.callId === undefined ? {} : { callId: nonEmpty(fields, "callId") }),
  };
}

/** The optional `agentFile` of a header or an `agent` entry (absent in older files). */
function agentFileOf(fields: Fields): { agentFile?: string } {
  return fields.agentFile === undefined ? {} : { agentFile: nonEmpty(fields, "agentFile") };
}

function unknownEntry(fields: Fields): UnknownEntry {
  const id = typeof fields.id === "string" && fields.id !== "" ? fields.id : null;
  const parentId = typeof fields.parentId === "string" ? fields.parentId : null;
  return { kind: "unknown", id, parentId, raw: fields };
}

/**
 * Checks a message entry where it lies, without copying it: a long session
 * holds thousands of them (see the long-session benchmark). Fields of a newer version stay
 * on the object; `toMessage` copies only the known ones.
 */
function assertMessageEntry(fields: Fields): asserts fields is Fields & MessageEntry {
  const role = fields.role;
  if (role !== "user" && role !== "assistant") {
    throw new InvalidEntryError("role", `must be "user" or "assistant" (found ${show(role)})`);
  }
  const blocks = array(fields.blocks, "blocks");
  for (let index = 0; index < blocks.length; index++) {
    assertEntryBlock(blocks[index], index, role);
  }
  if (role === "assistant") {
    if (fields.responseModel !== undefined) string(fields, "responseModel");
    if (fields.responseStopReason !== undefined) string(fields, "responseStopReason");
    usage(fields.responseUsage);
  }
}

const USER_BLOCK_TYPES: readonly string[] = ["text", "tool_result"];
const ASSISTANT_BLOCK_TYPES: readonly string[] = ["text", "thinking", "tool_call"];

function assertEntryBlock(
  value: unknown,
  index: number,
  role: "user" | "assistant",
): asserts value is EntryBlock {
  // Field names are built only on error.
  const field = () => `blocks[${index}]`;
  if (!isRecord(value)) {
    throw new InvalidEntryError(field(), `must be an object (found ${show(value)})`);
  }
  const type = value.type;
  const allowed = role === "user" ? USER_BLOCK_TYPES : ASSISTANT_BLOCK_TYPES;
  if (typeof type !== "string" || !allowed.includes(type)) {
    const expected = allowed.map((name) => `"${name}"`).join(", ");
    throw new InvalidEntryError(
      `${field()}.type`,
      `${
        role === "user" ? "a user" : "an assistant"
      } message holds only ${expected} blocks (found ${show(type)})`,
    );
  }
  const at = (key: string) => `${field()}.${key}`;
  switch (type) {
    case "text":
      string(value, "text", at);
      if (value.textSignature !== undefined) string(value, "textSignature", at);
      return;
    case "thinking":
      string(value, "thinking", at);
      if (value.thinkingSignature !== undefined) string(value, "thinkingSignature", at);
      redacted(value.redacted, at("redacted"));
      return;
    case "tool_call":
      string(value, "toolCallId", at);
      string(value, "toolCallName", at);
      if (!isRecord(value.toolCallArguments)) {
        throw new InvalidEntryError(
          at("toolCallArguments"),
          `must be an object (found ${show(value.toolCallArguments)})`,
        );
      }
      if (value.toolCallRawArguments !== undefined) string(value, "toolCallRawArguments", at);
      return;
    default:
      string(value, "toolResultCallId", at);
      assertResultParts(value.toolResult, at);
      boolean(value.toolResultIsError, at("toolResultIsError"));
  }
}

function assertResultParts(value: unknown, at: (key: string) => string): void {
  if (!Array.isArray(value)) {
    throw new InvalidEntryError(at("toolResult"), `must be a list (found ${show(value)})`);
  }
  for (let index = 0; index < value.length; index++) {
    const partField = () => `${at("toolResult")}[${index}]`;
    const part: unknown = value[index];
    if (!isRecord(part)) {
      throw new InvalidEntryError(partField(), `must be an object (found ${show(part)})`);
    }
    if (part.type !== "text") {
      throw new InvalidEntryError(
        `${partField()}.type`,
        `must be "text" (found ${show(part.type)})`,
      );
    }
    string(part, "text", (key) => `${partField()}.${key}`);
  }
}

function usage(value: unknown): EntryUsage | null {
  if (value === undefined || value === null) return null;
  const fields = record(value, "responseUsage");
  const at = (key: string) => `responseUsage.${key}`;
  return {
    inputTokens: count(fields.inputTokens, at("inputTokens")),
    outputTokens: count(fields.outputTokens, at("outputTokens")),
    reasoningTokens: count(fields.reasoningTokens, at("reasoningTokens")),
    cacheReadTokens: count(fields.cacheReadTokens, at("cacheReadTokens")),
    cacheWriteTokens: count(fields.cacheWriteTokens, at("cacheWriteTokens")),
  };
}

function record(value: unknown, field: string): Fields {
  if (!isRecord(value)) {
    throw new InvalidEntryError(field, `must be an object (found ${show(value)})`);
  }
  return value;
}

function array(value: unknown, field: string): readonly unknown[] {
  if (!Array.isArray(value)) {
    throw new InvalidEntryError(field, `must be a list (found ${show(value)})`);
  }
  return value;
}

function string(fields: Fields, key: string, at: (key: string) => string = same): string {
  const value = fields[key];
  if (typeof value !== "string") {
    throw new InvalidEntryError(at(key), `must be a string (found ${show(value)})`);
  }
  return value;
}

function nonEmpty(fields: Fields, key: string): string {
  const value = string(fields, key);
  if (value === "") throw new InvalidEntryError(key, "must not be empty");
  return value;
}

function boolean(value: unknown, field: string): boolean {
  if (typeof value !== "boolean") {
    throw new InvalidEntryError(field, `must be true or false (found ${show(value)})`);
  }
  return value;
}

function redacted(value: unknown, field: string): boolean {
  return value === undefined ? false : boolean(value, field);
}

function count(value: unknown, field: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw new InvalidEntryError(
      field,
      `must be a whole number of at least 0 (found ${show(value)})`,
    );
  }
  return value;
}

function same(key: string): string {
  return key;
}

/** A short rendering of a found value for error messages. */
function show(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
