/**
 * Whether a request of a replayed run is the one its cassette recorded
 * (docs/testing.md, "Mismatches"): the same turn, protocol, model and set of
 * tools offered, and with `--replay-strict` the same conversation. The first
 * difference is worded for the one `rienda:` line of the failed run.
 *
 * @module
 */

import { type FieldPath, formatFieldPath } from "../base/field_path.ts";
import type { WireProtocol } from "../providers/client.ts";
import { type ConversationItem, requestView } from "../providers/request_view.ts";
import { isRecord } from "../base/unknown.ts";
import type { Exchange } from "./cassette_format.ts";

/** The request a replayed run is about to send. */
export interface SentRequest {
  /** The model request of the run, from 1. */
  readonly turn: number;
  /** Whether an exchange of this turn was already replayed (this one is a retry or a redirect hop). */
  readonly again: boolean;
  readonly protocol: WireProtocol;
  /** The `provider/model` reference. */
  readonly model: string;
  /** The JSON body about to be sent. */
  readonly body: unknown;
}

/** What is compared. */
export interface CheckOptions {
  /** Compare the conversation sent too. */
  readonly strict: boolean;
  /** The last turn the cassette records. */
  readonly lastTurn: number;
}

/** The most characters of a value a mismatch quotes. */
const MAX_QUOTED_CHARS = 80;

/** The first difference between `sent` and `recorded` (the cassette's next exchange), or null. */
export function replayMismatch(
  sent: SentRequest,
  recorded: Exchange | undefined,
  options: CheckOptions,
): string | null {
  if (recorded === undefined || recorded.turn > sent.turn) {
    return sent.again
      ? "the run tries the request again, the cassette records no more attempts"
      : `the run sends more requests than the cassette records (it ends after turn ${options.lastTurn})`;
  }
  if (recorded.turn < sent.turn) {
    return `the cassette records more attempts of turn ${recorded.turn} than the run made`;
  }
  if (recorded.protocol !== sent.protocol) {
    return `the run speaks ${sent.protocol}, the cassette recorded ${recorded.protocol}`;
  }
  if (recorded.model !== sent.model) {
    return `the request is for model ${sent.model}, the cassette recorded ${recorded.model}`;
  }
  const now = requestView(sent.protocol, sent.body);
  const then = requestView(recorded.protocol, recorded.request.body);
  if (now.model !== then.model) {
    return `the request is for model id ${String(now.model)}, the cassette recorded ${
      String(then.model)
    }`;
  }
  const tools = toolsMismatch(now.tools, then.tools);
  if (tools !== null) return tools;
  return options.strict ? conversationMismatch(now.conversation, then.conversation) : null;
}

function toolsMismatch(sent: readonly string[], recorded: readonly string[]): string | null {
  const now = new Set(sent);
  const then = new Set(recorded);
  const added = [...now].filter((name) => !then.has(name));
  const missing = [...then].filter((name) => !now.has(name));
  if (added.length === 0 && missing.length === 0) return null;
  const list = (names: Iterable<string>) => [...names].sort().join(", ") || "none";
  const changes = [
    ...(missing.length === 0 ? [] : [`missing ${missing.join(", ")}`]),
    ...(added.length === 0 ? [] : [`new ${added.join(", ")}`]),
  ];
  return `the request offers the tools ${list(now)}, the cassette recorded ${list(then)} (${
    changes.join("; ")
  })`;
}

function conversationMismatch(
  sent: readonly ConversationItem[],
  recorded: readonly ConversationItem[],
): string | null {
  const length = Math.max(sent.length, recorded.length);
  for (let index = 0; index < length; index++) {
    const now = sent[index];
    const then = recorded[index];
    const name = (item: ConversationItem) => `message ${index + 1} (${item.label})`;
    if (now === undefined && then !== undefined) {
      return `the conversation sent ends before ${name(then)} the cassette recorded`;
    }
    if (then === undefined && now !== undefined) {
      return `${name(now)} is not in the cassette: it recorded ${recorded.length} messages`;
    }
    if (now === undefined || then === undefined) continue;
    const difference = firstDifference(now.value, then.value, []);
    if (difference !== null) {
      const at = difference.path.length === 0 ? "" : ` at ${formatFieldPath(difference.path)}`;
      return `${name(now)} differs from the cassette${at}: recorded ${
        quoted(difference.recorded)
      }, sent ${quoted(difference.sent)}`;
    }
  }
  return null;
}

/** Where two JSON values first differ, depth first, in the recorded value's key order. */
function firstDifference(
  sent: unknown,
  recorded: unknown,
  path: FieldPath,
): { path: FieldPath; sent: unknown; recorded: unknown } | null {
  if (Array.isArray(sent) && Array.isArray(recorded)) {
    for (let index = 0; index < Math.max(sent.length, recorded.length); index++) {
      const found = firstDifference(sent[index], recorded[index], [...path, index]);
      if (found !== null) return found;
    }
    return null;
  }
  if (isRecord(sent) && isRecord(recorded)) {
    const keys = [...new Set([...Object.keys(recorded), ...Object.keys(sent)])];
    for (const key of keys) {
      const found = firstDifference(sent[key], recorded[key], [...path, key]);
      if (found !== null) return found;
    }
    return null;
  }
  return Object.is(sent, recorded) ? null : { path, sent, recorded };
}

function quoted(value: unknown): string {
  const text = value === undefined ? "nothing" : JSON.stringify(value);
  return text.length > MAX_QUOTED_CHARS ? `${text.slice(0, MAX_QUOTED_CHARS)}…` : text;
}
