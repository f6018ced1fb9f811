/**
 * What a run reports as it happens: the union every front end renders and the
 * `stream-json` output prints one per line (documented in
 * `docs/stream-json.md`; keep the two in step).
 *
 * @module
 */

import type { StopReason, Usage } from "../llm/messages.ts";
import type { EndReason, HookCallReport } from "./hooks.ts";
import type { HookStop } from "./hook_stop.ts";

/**
 * One event of a run. Tags are snake_case, as printed by `stream-json`. An
 * event of a subagent's run carries `parent`, the id of the `agent` call
 * that started that run (docs/subagents.md).
 */
export type RunEvent = OwnEvent & { readonly parent?: string };

/** The events a run emits itself, before any `parent` tag. */
type OwnEvent =
  | {
    readonly type: "run_start";
    readonly sessionId: string;
    readonly agent: string;
    readonly model: string;
    readonly diagnostics: readonly string[];
  }
  | { readonly type: "text_delta"; readonly text: string }
  | { readonly type: "thinking_delta"; readonly text: string }
  | {
    readonly type: "message_end";
    /** The assistant text after `afterModelResponse` (what is stored). */
    readonly text: string;
    readonly model: string;
    readonly stopReason: StopReason;
    readonly usage: Usage | null;
  }
  | {
    readonly type: "tool_call";
    readonly id: string;
    readonly name: string;
    readonly arguments: unknown;
  }
  | { readonly type: "tool_output"; readonly id: string; readonly text: string }
  | {
    readonly type: "tool_result";
    readonly id: string;
    readonly name: string;
    readonly text: string;
    readonly isError: boolean;
  }
  | { readonly type: "notice"; readonly text: string }
  /** One call of one hook (docs/stream-json.md, "hook"). */
  | ({ readonly type: "hook" } & HookCallReport)
  | {
    readonly type: "retry";
    readonly attempt: number;
    readonly delayMs: number;
    readonly error: string;
  }
  | { readonly type: "compaction"; readonly tokensBefore: number; readonly summary: string }
  | {
    readonly type: "run_end";
    readonly reason: EndReason;
    readonly error?: string;
    /** The final assistant text of the run. */
    readonly text: string;
    readonly usage: Usage;
    readonly turns: number;
    /** The hook that stopped the run, when `reason` is `hook_stop`. */
    readonly stop?: HookStop;
  };

/** Receives the events of a run, in order. */
export type EventSink = (event: RunEvent) => void;
