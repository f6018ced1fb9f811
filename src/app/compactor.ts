/**
 * The app's side of compaction: the summary request (the prompt of
 * docs/sessions.md, or `$RIENDA_HOME/COMPACTION.md`, plus the older
 * conversation as text) and where the compaction entry is stored.
 *
 * @module
 */

import type { CompactionRecord, Compactor, SummaryInput } from "../engine/compaction.ts";
import type { Message } from "../llm/messages.ts";
import type { ModelRequest } from "../llm/model_events.ts";
import { errorMessage } from "../base/unknown.ts";

/** The built-in summary prompt; `$RIENDA_HOME/COMPACTION.md` replaces it. */
const DEFAULT_COMPACTION_PROMPT =
  `You summarise the earlier part of a conversation between a user and an AI agent, so that the agent can continue the work from your summary alone. The conversation is given between <conversation> tags; an earlier summary, when there is one, between <previous-summary> tags: fold it into yours.

Write the summary in Markdown with exactly these five sections:

## Objective
What the user wants to achieve, in their own terms.

## Constraints and decisions
Requirements, preferences and limits the user stated, and the decisions taken so far with their reasons.

## Progress
What has been done: steps completed, files read or changed, commands run and their outcomes, what failed.

## Next steps
What remains to be done, in order.

## Exact details
Names, paths, identifiers, commands, values, error messages and short snippets that must be kept verbatim.

Be concise but keep everything needed to continue. Do not continue the conversation and do not answer it: write only the summary.`;

/** Characters of one tool argument or result kept in the summary request. */
const MAX_SUMMARY_PART_CHARS = 8_000;

/** Options of {@link createCompactor}. */
export interface CompactorOptions {
  readonly contextWindow: number;
  readonly reserveTokens: number;
  readonly keepRecentTokens: number;
  /** `$RIENDA_HOME/COMPACTION.md`, read only when a compaction happens. */
  readonly promptFile: string;
  /** Stores the compaction entry. */
  readonly record: (compaction: CompactionRecord) => Promise<void>;
}

/** The engine's {@link Compactor}, backed by the configuration and the session. */
export function createCompactor(options: CompactorOptions): Compactor {
  const { contextWindow, reserveTokens, keepRecentTokens, promptFile, record } = options;
  return {
    settings: { contextWindow, reserveTokens, keepRecentTokens },
    async summaryRequest(input) {
      return summaryRequest(await loadCompactionPrompt(promptFile), input);
    },
    record,
  };
}

/**
 * The text of `COMPACTION.md` when it exists and is not blank, else the
 * built-in prompt.
 */
async function loadCompactionPrompt(file: string): Promise<string> {
  try {
    const text = (await Deno.readTextFile(file)).trim();
    return text === "" ? DEFAULT_COMPACTION_PROMPT : text;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return DEFAULT_COMPACTION_PROMPT;
    const reason = errorMessage(error);
    throw new Error(`cannot read the compaction prompt ${file}: ${reason}`, { cause: error });
  }
}

/** The summary request: the prompt as system, the conversation as one user message, no tools. */
export function summaryRequest(prompt: string, input: SummaryInput): ModelRequest {
  const parts: string[] = [];
  if (input.previousSummary !== null) {
    parts.push(`<previous-summary>\n${input.previousSummary}\n</previous-summary>`);
  }
  parts.push(`<conversation>\n${conversationText(input.messages)}\n</conversation>`);
  parts.push("Write the summary now.");
  return {
    system: prompt,
    messages: [{ role: "user", blocks: [{ type: "text", text: parts.join("\n\n") }] }],
    tools: [],
  };
}

/**
 * A conversation as plain text for the summary request: one labelled
 * paragraph per prompt, answer, tool call and result (thinking left out,
 * long arguments and results cut).
 */
function conversationText(messages: readonly Message[]): string {
  const lines: string[] = [];
  for (const message of messages) {
    for (const block of message.blocks) {
      switch (block.type) {
        case "text":
          if (block.text.trim() !== "") lines.push(`[${message.role}]\n${block.text}`);
          break;
        case "thinking":
          break;
        case "tool_call":
          lines.push(
            `[tool call ${block.name}] ${
              cut(block.rawArguments ?? JSON.stringify(block.arguments))
            }`,
          );
          break;
        case "tool_result": {
          const text = block.content.map((part) => part.text).join("");
          lines.push(`[tool result${block.isError ? ", error" : ""}]\n${cut(text)}`);
          break;
        }
        default:
          block satisfies never;
      }
    }
  }
  return lines.join("\n\n");
}

function cut(text: string): string {
  if (text.length <= MAX_SUMMARY_PART_CHARS) return text;
  return `${text.slice(0, MAX_SUMMARY_PART_CHARS)}\n[… ${
    text.length - MAX_SUMMARY_PART_CHARS
  } more characters]`;
}
