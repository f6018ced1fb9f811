/**
 * The default `--output text` renderer (docs/cli.md, "Output, text format"):
 * stdout carries the assistant's text and nothing else; stderr carries the
 * session id, tool activity, notices and retries.
 *
 * - An assistant message is printed once it is complete (after retries and
 *   after `afterModelResponse`), so a discarded partial or an unredacted
 *   draft never reaches stdout.
 * - A spinner shows progress on stderr only when stderr is a terminal and
 *   colour is allowed: waiting for the model, writing, and a running tool
 *   with its elapsed time while it prints nothing.
 * - Each call is a `tool:` line with its arguments (long ones cut), its live
 *   output, then one result line (`tool done: exit 0 · 3 lines`, `tool
 *   failed: …`) and, for `edit` and `write`, the diff of the change, red and
 *   green on a terminal.
 * - stderr is the human channel: text of the model, tools and extensions on
 *   it always has its control characters written out, pipe or terminal; a
 *   command's colours are rendered on a terminal with colour and dropped
 *   otherwise (`terminal_text.ts`). stdout on a terminal is written out the
 *   same way; stdout to a pipe or a file stays byte-exact.
 *
 * @module
 */

import type { EventSink } from "../engine/events.ts";
import type { TextSink } from "./io.ts";
import { createSpinner, formatElapsed, type Style } from "./terminal.ts";
import {
  type CommandStream,
  createCommandStream,
  outputMode,
  safeFor,
  terminalSafe,
} from "./terminal_text.ts";
import { changeOf, paintDiffLine, resultSummary } from "./tool_lines.ts";
import { createSubagentLines } from "./subagent_lines.ts";

/** Where and how the text renderer writes. */
export interface TextRendererOptions {
  readonly stdout: TextSink;
  readonly stderr: TextSink;
  readonly style: Style;
  /** Whether `style` colours: a command's own colours are then shown too. */
  readonly color: boolean;
  /** Print `session: <id>` first; false for a run that keeps nothing (`--no-session`). */
  readonly showSession: boolean;
  /** Animate progress on stderr (`useSpinner`): a terminal, colour allowed. */
  readonly spinner: boolean;
}

/** A renderer plus a way to clear its progress line before the CLI writes. */
export interface Renderer {
  readonly sink: EventSink;
  /** Stops any progress display; called before the final error line. */
  finish(): void;
}

/** How long a running tool's output stays silent before its spinner comes back. */
const SILENCE_MS = 500;

/** The most characters of a call's arguments JSON shown on its `tool:` line. */
export const MAX_ARGUMENTS_SHOWN = 200;

/** A call's arguments as the `tool:` line shows them: JSON, cut after {@link MAX_ARGUMENTS_SHOWN}. */
function argumentsJson(args: unknown): string {
  const json = JSON.stringify(args) ?? "";
  return json.length <= MAX_ARGUMENTS_SHOWN ? json : `${json.slice(0, MAX_ARGUMENTS_SHOWN)}…`;
}

/** Creates the text renderer. */
export function createTextRenderer(options: TextRendererOptions): Renderer {
  const { stdout, stderr, style } = options;
  const spinner = createSpinner(stderr, style, options.spinner);
  /** The progress label of the running tool call, while there is one. */
  let toolProgress: (() => string) | undefined;
  /** Brings the tool's spinner back once its output has been silent for a while. */
  let silence: ReturnType<typeof setTimeout> | undefined;
  const cancelSilence = () => {
    clearTimeout(silence);
    silence = undefined;
  };
  let stderrAtLineStart = true;
  /** The live output of each call so far (for its result line) and how it is being shown. */
  const streamed = new Map<string, { output: string; shown: CommandStream }>();
  const mode = outputMode(stderr, options.color);
  let streamedChars = 0;
  /** Whether stdout already carries a message (the next one is set off by a blank line). */
  let printedMessage = false;

  const endStderrLine = () => {
    cancelSilence();
    spinner.stop();
    if (!stderrAtLineStart) stderr.write("\n");
    stderrAtLineStart = true;
  };
  const line = (text: string) => {
    endStderrLine();
    stderr.write(`${text}\n`);
  };
  /** Untrusted text bound for stderr (always written out: the human channel) / stdout. */
  const err = terminalSafe;
  const out = (text: string) => safeFor(stdout.isTerminal, text);
  const writeOutput = (shown: string) => {
    if (shown === "") return;
    stderr.write(style.dim(shown));
    stderrAtLineStart = shown.endsWith("\n");
  };
  const subagentLines = createSubagentLines(style);
  const sink: EventSink = (event) => {
    const nested = subagentLines(event);
    if (event.parent !== undefined) {
      for (const text of nested) line(text);
      if (nested.length > 0 && toolProgress !== undefined) spinner.start(toolProgress);
      return;
    }
    switch (event.type) {
      case "run_start":
        if (options.showSession) line(`session: ${event.sessionId}`);
        for (const diagnostic of event.diagnostics) line(style.yellow(err(diagnostic)));
        spinner.start("waiting for the model");
        break;
      case "text_delta":
        streamedChars += event.text.length;
        spinner.start(`writing (${streamedChars} characters)`);
        break;
      case "thinking_delta":
        spinner.start("thinking");
        break;
      case "message_end":
        streamedChars = 0;
        spinner.stop();
        if (event.text !== "") {
          // A blank line between messages, so each stays its own paragraph.
          const gap = printedMessage ? "\n" : "";
          stdout.write(gap + out(event.text.endsWith("\n") ? event.text : `${event.text}\n`));
          printedMessage = true;
        }
        break;
      case "tool_call": {
        line(`${style.cyan("tool:")} ${err(`${event.name} ${argumentsJson(event.arguments)}`)}`);
        const started = Date.now();
        const name = err(event.name);
        toolProgress = () => `running ${name} (${formatElapsed(Date.now() - started)})`;
        spinner.start(toolProgress);
        break;
      }
      case "tool_output":
        cancelSilence();
        spinner.stop();
        if (event.text === "") break;
        {
          const call = streamed.get(event.id) ?? { output: "", shown: createCommandStream(mode) };
          streamed.set(event.id, call);
          call.output += event.text;
          writeOutput(call.shown.push(event.text));
        }
        // Silent for a while at the start of a line: the spinner comes back below the output.
        if (stderrAtLineStart && toolProgress !== undefined && options.spinner) {
          const progress = toolProgress;
          silence = setTimeout(() => spinner.start(progress), SILENCE_MS);
          Deno.unrefTimer(silence);
        }
        break;
      case "tool_result": {
        toolProgress = undefined;
        cancelSilence();
        spinner.stop();
        const call = streamed.get(event.id);
        streamed.delete(event.id);
        if (call !== undefined) writeOutput(call.shown.end());
        if (event.isError) {
          line(style.red(`tool failed: ${err(failureText(event.text, call !== undefined))}`));
        } else {
          const summary = resultSummary(event.name, event.text, call?.output ?? "");
          line(`${style.green("tool done:")} ${err(summary)}`);
          for (const diffLine of changeOf(event.name, event.text)?.diff ?? []) {
            line(paintDiffLine(err(diffLine), style));
          }
        }
        spinner.start("waiting for the model");
        break;
      }
      case "notice":
        line(style.yellow(err(event.text)));
        break;
      case "retry":
        streamedChars = 0;
        line(
          style.yellow(`retrying in ${(event.delayMs / 1000).toFixed(1)}s: ${err(event.error)}`),
        );
        break;
      case "compaction":
        line(style.dim("compaction: the conversation was compacted"));
        break;
      case "run_end":
        cancelSilence();
        spinner.stop();
        break;
      case "hook": // telemetry (stream-json, json): refusals show as failed tools
        break;
      default: {
        const unexpected: never = event;
        throw new Error(`unknown run event ${JSON.stringify(unexpected)}`);
      }
    }
  };
  return {
    sink,
    finish: endStderrLine,
  };
}

/**
 * The part of a failed result worth repeating: all of it, unless its output
 * was already streamed live, then only its last line (e.g. the exit code).
 */
function failureText(text: string, streamed: boolean): string {
  if (!streamed) return text;
  const lines = text.trimEnd().split("\n");
  return lines[lines.length - 1] ?? "";
}
