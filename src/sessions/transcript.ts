/**
 * A session as readable text (`rienda sessions show`): the active branch in
 * order, one labelled section per prompt, answer, tool results, compaction
 * and switch. Plain text, no colour; meant for people, not for parsing.
 *
 * ```text
 * ── user ──
 * list the files
 *
 * ── assistant (fake-model) ──
 * tool call shell {"command":"ls"}
 * ```
 *
 * @module
 */

import type { EntryBlock, HookStopEntry, MessageEntry } from "./entries.ts";
import { activeBranch, type SessionEntries } from "./history.ts";

/**
 * The transcript of the active branch of a session, ending with a newline.
 *
 * @example
 * ```ts
 * formatTranscript({
 *   header: { kind: "header", version: 1, id: "01k5", createdAt: "2026-01-01T00:00:00.000Z", agent: "coder", model: "fake/m", workdir: "/w" },
 *   entries: [{ kind: "message", id: "a", parentId: "", createdAt: "", role: "user", blocks: [{ type: "text", text: "hi" }] }],
 * });
 * // "session 01k5\nagent coder, model fake/m, started 2026-01-01T00:00:00.000Z in /w\n\n── user ──\nhi\n"
 * ```
 */
export function formatTranscript(data: SessionEntries): string {
  const { header } = data;
  const sections: string[] = [
    `session ${header.id}\nagent ${header.agent}, model ${header.model}, started ${header.createdAt} in ${header.workdir}`,
  ];
  const callNames = new Map<string, string>();
  for (const entry of activeBranch(data)) {
    switch (entry.kind) {
      case "message":
        sections.push(messageSection(entry, callNames));
        break;
      case "compaction":
        sections.push(
          `── compaction (about ${entry.tokensBefore} tokens summarised) ──\n${entry.summary.trim()}`,
        );
        break;
      case "agent":
        sections.push(`── agent switched to ${entry.agent} ──`);
        break;
      case "model":
        sections.push(`── model switched to ${entry.model} ──`);
        break;
      case "thinking":
        sections.push(`── thinking switched to ${entry.thinking} ──`);
        break;
      case "title":
        sections.push(`── titled "${entry.title}" ──`);
        break;
      case "leaf":
        break; // activeBranch() already followed it
      case "tool_start":
        break; // the results that follow say how the call ended
      case "hook_denial":
        sections.push(
          `── hook "${entry.hook}" ${entry.outcome === "deny" ? "refused" : "failed closed on"} ${
            entry.callId === undefined ? entry.point : `call ${entry.callId}`
          }${entry.reason === undefined ? "" : `: ${entry.reason}`} ──`,
        );
        break;
      case "hook_stop":
        sections.push(`── ${stoppedLine(entry)} ──`);
        break;
      case "failure":
        sections.push(`── the run failed: ${entry.error} ──`);
        break;
      case "unknown":
        sections.push(`── entry of unknown kind ${JSON.stringify(entry.raw.kind)} ──`);
        break;
      default:
        entry satisfies never;
    }
  }
  return `${sections.join("\n\n")}\n`;
}

/** `hook "x" stopped the run at call c1: <reason>` (or `at beforeRun`). */
function stoppedLine(entry: HookStopEntry): string {
  const at = entry.callId === undefined ? entry.point : `call ${entry.callId}`;
  return `hook "${entry.hook}" stopped the run at ${at}${
    entry.reason === "" ? "" : `: ${entry.reason}`
  }`;
}

function messageSection(entry: MessageEntry, callNames: Map<string, string>): string {
  const isResults = entry.blocks.length > 0 &&
    entry.blocks.every((block) => block.type === "tool_result");
  const title = entry.role === "assistant"
    ? `assistant${entry.responseModel ? ` (${entry.responseModel})` : ""}`
    : isResults
    ? "tool results"
    : "user";
  const body = entry.blocks.map((block) => blockText(block, callNames)).filter((text) =>
    text !== ""
  );
  return `── ${title} ──\n${body.join(isResults ? "\n\n" : "\n")}`;
}

function blockText(block: EntryBlock, callNames: Map<string, string>): string {
  switch (block.type) {
    case "text":
      return block.text.trimEnd();
    case "thinking":
      return block.thinking.trim() === "" ? "" : `(thinking) ${block.thinking.trim()}`;
    case "tool_call": {
      callNames.set(block.toolCallId, block.toolCallName);
      const args = block.toolCallRawArguments ?? JSON.stringify(block.toolCallArguments);
      return `tool call ${block.toolCallName} ${args}`;
    }
    case "tool_result": {
      const name = callNames.get(block.toolResultCallId) ?? block.toolResultCallId;
      const text = block.toolResult.map((part) => part.text).join("").trimEnd();
      return `${name}${block.toolResultIsError ? " failed" : ""}:\n${
        text === "" ? "(no output)" : text
      }`;
    }
    default:
      return block satisfies never;
  }
}
