/**
 * The chat for `TERM=dumb`: plain lines, no cursor movement, no raw mode.
 * The terminal edits the line; Enter sends it. Answers stream as they
 * arrive (Markdown as written), tool calls and notices are lines of their
 * own (a command's output without its colours, an edit's diff after it),
 * questions are answered with `y`. Ctrl+C ends the chat like an
 * interrupt of `rienda run`; Ctrl+D or `/quit` leaves.
 *
 * @module
 */

import type { RunEvent } from "../../engine/events.ts";
import type { TextSink } from "../io.ts";
import { discardTypedAhead, readLine } from "../line_input.ts";
import type { ChatBackend, Question } from "./backend.ts";
import { argumentsLine } from "./blocks.ts";
import { commandText, terminalSafe } from "../terminal_text.ts";
import { changeOf } from "../tool_lines.ts";

/** What the plain chat runs on. */
export interface PlainOptions {
  readonly out: TextSink;
  readonly backend: ChatBackend;
  readonly prompt: string | undefined;
  readonly autoApprove: boolean;
  readonly signal: AbortSignal;
}

/** Runs the plain chat; resolves to the exit code. */
export async function runPlain(options: PlainOptions): Promise<number> {
  const { out, backend, signal } = options;
  let atLineStart = true;
  const write = (text: string) => {
    if (text === "") return;
    out.write(text);
    atLineStart = text.endsWith("\n");
  };
  const line = (text: string) => {
    if (!atLineStart) write("\n");
    write(`${text}\n`);
  };
  const emit = (event: RunEvent) => {
    // A subagent's events: its `agent` call shows as a call and a result.
    if (event.parent !== undefined) return;
    switch (event.type) {
      case "text_delta":
        return write(terminalSafe(event.text).replace(/\r/g, ""));
      case "message_end":
        if (!atLineStart) write("\n");
        return;
      case "tool_call":
        return line(`[${event.name}] ${terminalSafe(argumentsLine(event.arguments))}`);
      case "tool_output":
        return write(commandText(event.text, "plain"));
      case "tool_result":
        if (event.isError) {
          line(`[${event.name} failed] ${terminalSafe(event.text).split("\n").at(-1)}`);
        } else {
          for (const diffLine of changeOf(event.name, event.text)?.diff ?? []) {
            line(terminalSafe(diffLine));
          }
        }
        return;
      case "notice":
        return line(`! ${terminalSafe(event.text)}`);
      case "retry":
        return line(`! retrying in ${(event.delayMs / 1000).toFixed(1)}s: ${event.error}`);
      case "compaction":
        return line("! the conversation was compacted");
      case "run_start":
        for (const diagnostic of event.diagnostics) line(`! ${diagnostic}`);
        return;
      case "thinking_delta":
      case "run_end":
      case "hook": // telemetry: refusals show as tool results
        return;
      default:
        event satisfies never;
    }
  };
  const confirm = async (question: Question, asked: AbortSignal): Promise<boolean> => {
    if (options.autoApprove) {
      line(`auto-approved (-y): ${terminalSafe(question.title)}`);
      return true;
    }
    // A line typed while the model was thinking was not meant for this question.
    await discardTypedAhead();
    line(`? ${terminalSafe(question.title)}`);
    if (question.body !== "") line(terminalSafe(question.body));
    write("approve? [y/N] ");
    const answer = await readLine(asked);
    atLineStart = true;
    return answer !== null && /^\s*y(es)?\s*$/i.test(answer);
  };
  line(`rienda · ${backend.state().agent} · plain mode (TERM=dumb) · /quit or ctrl+d leaves`);
  let next: string | null | undefined = options.prompt;
  for (;;) {
    if (signal.aborted) return 130;
    if (next === undefined) {
      write("> ");
      next = await readLine();
      atLineStart = true;
    }
    if (next === null || next.trim() === "/quit") break;
    const prompt = next;
    next = undefined;
    if (prompt.trim() === "") continue;
    if (prompt.startsWith("/")) {
      line("commands other than /quit need a terminal that is not TERM=dumb");
      continue;
    }
    const result = await backend.runTurn(prompt, {
      emit,
      confirm,
      notify: (notice) => line(`• ${terminalSafe(notice.title)}: ${terminalSafe(notice.body)}`),
      signal,
    });
    if (result.reason === "interrupted") return 130;
    if (result.reason === "error") line(`rienda: ${result.error ?? "the run failed"}`);
    if (result.reason === "hook_stop") {
      line(`rienda: ${terminalSafe(result.stopped ?? "a hook stopped the run")}`);
    }
  }
  const id = backend.state().sessionId;
  if (id !== null) line(`session ${id} (rienda -c continues it)`);
  return 0;
}
