/**
 * A run's events → ACP `session/update`s: text and thinking deltas become
 * message and thought chunks, a tool call becomes `tool_call` (title, kind,
 * locations, raw input, `in_progress`), its live output `tool_call_update`s
 * with the output so far (`live_output.ts`) and its result a `tool_call_update`
 * (`completed` or `failed`, with the result text, and for a `write` or
 * `edit` that changed a file its `diff`: `file_diffs.ts`). Notices, retries and
 * diagnostics are logs, not updates.
 *
 * @module
 */

import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { EventSink } from "../engine/events.ts";
import { createFileDiffs } from "./file_diffs.ts";
import { createLiveOutput } from "./live_output.ts";
import type { ClientWrite } from "./client_files.ts";
import { toolCallView } from "./tool_call_view.ts";
import { stoppedBy } from "../engine/hook_stop.ts";

/** A tool call between its `tool_call` and its result. */
export interface RunningCall {
  readonly id: string;
  readonly name: string;
  readonly title: string;
}

/** What {@link createTurnUpdates} sends through and reads from. */
export interface TurnUpdatesOptions {
  readonly workdir: string;
  /** Sends one update to the client, in order. */
  readonly send: (update: SessionUpdate) => void;
  /** Writes one line to the log (stderr). */
  readonly log: (line: string) => void;
}

/** The event sink of one prompt, and what it saw. */
export interface TurnUpdates {
  readonly emit: EventSink;
  /** The call running now, if any: a permission request asked during it belongs to it. */
  runningCall(): RunningCall | undefined;
  /** Whether the model stopped an answer on its content filter. */
  refused(): boolean;
  /** A write the editor did for the running call: its diff is the call's. */
  recordWrite(write: ClientWrite): void;
}

/** Maps the events of one prompt to updates. */
export function createTurnUpdates(options: TurnUpdatesOptions): TurnUpdates {
  const { send, log } = options;
  let running: RunningCall | undefined;
  let refused = false;
  const diffs = createFileDiffs(options.workdir);
  const live = createLiveOutput(send);
  const emit: EventSink = (event) => {
    // A subagent's events: its `agent` call is one tool call to the client.
    if (event.parent !== undefined) return;
    switch (event.type) {
      case "text_delta":
        send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: event.text } });
        return;
      case "thinking_delta":
        send({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: event.text } });
        return;
      case "message_end":
        if (event.stopReason === "content_filter") refused = true;
        return;
      case "tool_call": {
        const view = toolCallView(event.name, event.arguments, options.workdir);
        running = { id: event.id, name: event.name, title: view.title };
        diffs.before(event.id, event.name, event.arguments);
        send({
          sessionUpdate: "tool_call",
          toolCallId: event.id,
          title: view.title,
          kind: view.kind,
          status: "in_progress",
          locations: view.locations,
          rawInput: event.arguments,
        });
        return;
      }
      case "tool_output":
        live.add(event.id, event.text);
        return;
      case "tool_result":
        live.end(event.id);
        if (running?.id === event.id) running = undefined;
        send({
          sessionUpdate: "tool_call_update",
          toolCallId: event.id,
          status: event.isError ? "failed" : "completed",
          content: [
            { type: "content", content: { type: "text", text: event.text } },
            ...diffs.after(event.id, event.isError),
          ],
        });
        return;
      case "run_start":
        for (const line of event.diagnostics) log(line);
        return;
      case "notice":
        log(event.text);
        return;
      case "retry":
        log(
          `retrying in ${
            Math.round(event.delayMs / 1000)
          } s (attempt ${event.attempt}): ${event.error}`,
        );
        return;
      case "compaction":
        log(`compacted the conversation (${event.tokensBefore} tokens before)`);
        return;
      case "run_end":
        live.close();
        // A hook's stop is said where the person reads: the answer, and the log.
        if (event.stop !== undefined && event.parent === undefined) {
          const line = stoppedBy(event.stop);
          log(line);
          send({
            sessionUpdate: "agent_message_chunk",
            content: { type: "text", text: `\n\n${line}` },
          });
        }
        return;
      case "hook": // telemetry: the refusals it reports reach the editor as tool results
        return;
      default: {
        const unknown: never = event;
        return unknown;
      }
    }
  };
  return {
    emit,
    runningCall: () => running,
    refused: () => refused,
    recordWrite(write) {
      if (running !== undefined) diffs.record(running.id, write);
    },
  };
}
