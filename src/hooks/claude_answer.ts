/**
 * A Claude Code command hook's exit, read as Claude Code reads it
 * (docs/extending.md, "Claude Code hooks"), for any event.
 *
 * - Exit 2 blocks, with stderr as the reason (the whole of it, trimmed).
 * - Exit 0: stdout that is a JSON object is read: `continue: false` with
 *   `stopReason` ends the run; `decision: "block"` with `reason` blocks
 *   (`"approve"`, an older PreToolUse form, allows); `hookSpecificOutput`
 *   gives `permissionDecision` (`allow`, `deny`, `ask`) with
 *   `permissionDecisionReason`, `updatedInput` and `additionalContext`;
 *   `systemMessage` is shown to the person. Other stdout is context at
 *   `UserPromptSubmit` and `SessionStart` and ignored elsewhere.
 * - Any other exit, a timeout or a program that cannot start is a
 *   non-blocking error (`failed`): a notice, or a refusal for a fail-closed
 *   entry (Claude Code's `onFailure: "block"`).
 * - Each text it says (a reason, context, a message) is cut at
 *   {@link MAX_HOOK_TEXT_CHARS}, so a hook that prints megabytes cannot
 *   fill every request's system prompt or the person's screen.
 *
 * @module
 */

import { cutChars } from "../base/cut_chars.ts";
import type { ClaudeEvent } from "../config/hook_entries.ts";
import {
  firstLine,
  type HookProcessResult,
  MAX_COLLECTED_BYTES,
  processFailure,
} from "./hook_process.ts";

/** What a Claude Code hook said, in Claude Code's terms. */
export interface ClaudeSaid {
  /** It blocked: exit 2, `decision: "block"` or `permissionDecision: "deny"`, with the reason. */
  readonly block?: string;
  /** `permissionDecision` `allow` or `ask` (PreToolUse), with its reason. */
  readonly permission?: { readonly decision: "allow" | "ask"; readonly reason: string };
  /** `updatedInput` (PreToolUse), in Claude Code's fields. */
  readonly updatedInput?: Readonly<Record<string, unknown>>;
  /** `additionalContext`, or plain stdout at UserPromptSubmit and SessionStart. */
  readonly context?: string;
  /** `continue: false`: the run ends, with `stopReason`. */
  readonly stop?: string;
  /** `systemMessage`: a warning for the person. */
  readonly message?: string;
  /** One of the texts above was longer than {@link MAX_HOOK_TEXT_CHARS}, and was cut. */
  readonly cut?: true;
}

/** The most characters of one text a Claude Code hook says (a reason, context, a message) passed on. */
export const MAX_HOOK_TEXT_CHARS = 10_000;

/** What ends a text that was cut. */
const CUT_MARKER = `\n[cut at ${MAX_HOOK_TEXT_CHARS} characters]`;

/** `said` with each of its texts cut at {@link MAX_HOOK_TEXT_CHARS}, and `cut` when one was. */
function capped(said: ClaudeSaid): ClaudeSaid {
  let cut = false;
  const cap = <T extends string | undefined>(text: T): T => {
    if (text === undefined || text.length <= MAX_HOOK_TEXT_CHARS) return text;
    cut = true;
    return (cutChars(text, MAX_HOOK_TEXT_CHARS).trimEnd() + CUT_MARKER) as T;
  };
  const result: ClaudeSaid = {
    ...said,
    ...(said.block === undefined ? {} : { block: cap(said.block) }),
    ...(said.context === undefined ? {} : { context: cap(said.context) }),
    ...(said.stop === undefined ? {} : { stop: cap(said.stop) }),
    ...(said.message === undefined ? {} : { message: cap(said.message) }),
    ...(said.permission === undefined
      ? {}
      : { permission: { ...said.permission, reason: cap(said.permission.reason) } }),
  };
  return cut ? { ...result, cut: true } : result;
}

/** How a Claude Code hook ended: what it said, the interrupt, or a non-blocking error. */
export type ClaudeAnswer =
  | { readonly kind: "said"; readonly said: ClaudeSaid }
  | { readonly kind: "interrupted" }
  | { readonly kind: "failed"; readonly problem: string; readonly timedOut?: boolean };

/** The events whose plain stdout Claude Code adds as context. */
const STDOUT_CONTEXT_EVENTS: readonly ClaudeEvent[] = ["UserPromptSubmit", "SessionStart"];

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function string(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function parseObject(stdout: string): Readonly<Record<string, unknown>> | null {
  const text = stdout.trim();
  if (!text.startsWith("{")) return null;
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

/** The fields of Claude Code's JSON output that rienda acts on. */
function fromJson(event: ClaudeEvent, output: Readonly<Record<string, unknown>>): ClaudeSaid {
  const said: { -readonly [K in keyof ClaudeSaid]: ClaudeSaid[K] } = {};
  const specific = isObject(output.hookSpecificOutput) ? output.hookSpecificOutput : {};
  if (output.continue === false) said.stop = string(output.stopReason) ?? "";
  const message = string(output.systemMessage);
  if (message !== undefined && message !== "") said.message = message;
  const reason = string(output.reason) ?? "";
  if (output.decision === "block") said.block = reason;
  if (output.decision === "approve" && event === "PreToolUse") {
    said.permission = { decision: "allow", reason };
  }
  if (event === "PreToolUse") {
    const decision = specific.permissionDecision;
    const why = string(specific.permissionDecisionReason) ?? "";
    if (decision === "deny") said.block = why;
    if (decision === "allow" || decision === "ask") said.permission = { decision, reason: why };
    if (isObject(specific.updatedInput)) said.updatedInput = specific.updatedInput;
  }
  const context = string(specific.additionalContext);
  if (context !== undefined && context !== "") said.context = context;
  return said;
}

/** What `result`, the end of a Claude Code hook for `event`, says (see the module doc). */
export function readClaudeResult(
  event: ClaudeEvent,
  result: HookProcessResult,
  timeoutMs: number,
): ClaudeAnswer {
  if (result.kind !== "exited") return processFailure(result, timeoutMs);
  if (result.code === 2) return { kind: "said", said: capped({ block: result.stderr.trim() }) };
  if (result.code !== 0) {
    const line = firstLine(result.stderr) || firstLine(result.stdout);
    return {
      kind: "failed",
      problem: `exited ${result.code}${line === "" ? "" : `: ${line}`}`,
    };
  }
  if (result.stdoutTruncated) {
    return {
      kind: "failed",
      problem: `wrote more than ${MAX_COLLECTED_BYTES / (1024 * 1024)} MiB on stdout`,
    };
  }
  const output = parseObject(result.stdout);
  if (output !== null) return { kind: "said", said: capped(fromJson(event, output)) };
  const text = result.stdout.trim();
  return {
    kind: "said",
    said: STDOUT_CONTEXT_EVENTS.includes(event) && text !== "" ? capped({ context: text }) : {},
  };
}
