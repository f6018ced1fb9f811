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
 * - Text of the model, tools and extensions printed on a terminal has its
 *   control characters written out (`terminal_text.ts`); stdout to a pipe or a
 *   file stays byte-exact.
 *
 * @module
 */

import type { EventSink } from "../engine/events.ts";
import type { TextSink } from "./io.ts";
import { createSpinner, formatElapsed, type Style } from "./terminal.ts";
import { safeFor } from "./terminal_text.ts";

/** Where and how the text renderer writes. */
export interface TextRendererOptions {
  readonly stdout: TextSink;
  readonly stderr: TextSink;
  readonly style: Style;
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
  const streamedCalls = new Set<string>();
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
  /** Untrusted text bound for stderr / stdout. */
  const err = (text: string) => safeFor(stderr.isTerminal, text);
  const out = (text: string) => safeFor(stdout.isTerminal, text);

  const sink: EventSink = (event) => {
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
        line(`${style.cyan("tool:")} ${err(`${event.name} ${JSON.stringify(event.arguments)}`)}`);
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
        streamedCalls.add(event.id);
        stderr.write(style.dim(err(event.text)));
        stderrAtLineStart = event.text.endsWith("\n");
        // Silent for a while at the start of a line: the spinner comes back below the output.
        if (stderrAtLineStart && toolProgress !== undefined && options.spinner) {
          const progress = toolProgress;
          silence = setTimeout(() => spinner.start(progress), SILENCE_MS);
          Deno.unrefTimer(silence);
        }
        break;
      case "tool_result":
        toolProgress = undefined;
        cancelSilence();
        if (event.isError) {
          line(
            style.red(`tool failed: ${err(failureText(event.text, streamedCalls.has(event.id)))}`),
          );
        } else endStderrLine();
        spinner.start("waiting for the model");
        break;
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
