/**
 * The script the fake provider plays: one {@link Turn} per request, whatever
 * the wire protocol, and the helpers codecs share to cut it into events.
 *
 * @module
 */

/** One tool call a scripted turn makes. */
export interface ScriptedToolCall {
  /** The call id; defaults to `call_<n>`, numbered across the provider's whole script. */
  readonly id?: string;
  readonly name: string;
  /** Encoded with `JSON.stringify`; `{}` when neither this nor `rawArguments` is given. */
  readonly arguments?: Readonly<Record<string, unknown>>;
  /** The argument text sent verbatim (wins over `arguments`), e.g. invalid JSON. */
  readonly rawArguments?: string;
  /** How many argument deltas the text is split into. @default 1 */
  readonly fragments?: number;
}

/**
 * Token counts of a scripted turn, in normalised terms: `input` excludes
 * cached reads (a codec adds `cachedInput` back where its protocol counts it
 * in the prompt), `output` includes `reasoning`.
 */
export interface ScriptedUsage {
  readonly input: number;
  readonly output: number;
  readonly cachedInput?: number;
  readonly reasoning?: number;
  readonly cacheWrite?: number;
}

/** One scripted response; every field is optional. */
export interface Turn {
  /**
   * Answer only a request whose body contains this text: the first turn of
   * the script that matches (or has no `when`) answers a request, so
   * requests that arrive in any order (subagents) each get their own turn.
   */
  readonly when?: string;
  /**
   * Hold the answer until this many requests have arrived in all (this one
   * included): proof that requests are in flight at the same time. After
   * 20 seconds it answers 500 saying how many came.
   */
  readonly holdUntilRequests?: number;
  readonly text?: string;
  /** How many deltas `text` (and `thinking`) are split into. @default 1 */
  readonly chunks?: number;
  readonly thinking?: string;
  /** Anthropic thinking signature; the Responses codec sends it as `encrypted_content`. */
  readonly thinkingSignature?: string;
  readonly toolCalls?: readonly ScriptedToolCall[];
  /** Reported usage; `null` reports none where the protocol allows it. @default {input: 10, output: 5} */
  readonly usage?: ScriptedUsage | null;
  /** Answer with this HTTP status and an error body instead of a stream. */
  readonly status?: number;
  /** The message of the error body. */
  readonly errorMessage?: string;
  /** The raw error body, sent verbatim instead of the protocol's error shape. */
  readonly errorBody?: string;
  /** Extra response headers, e.g. `retry-after`. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Send this text instead of the codec's events (any protocol): each chunk
   * is one write, `chunkDelayMs` apart, the whole list `repeat` times.
   */
  readonly rawStream?: { readonly chunks: readonly string[]; readonly repeat?: number };
  /** Send the first half of the events, then end the body without finishing. */
  readonly cut?: boolean;
  /** Delay between SSE events. */
  readonly chunkDelayMs?: number;
  /** Delay before the response starts. */
  readonly firstByteDelayMs?: number;
  /** The stop reason in the protocol's own words (`length`, `max_tokens`, `max_output_tokens`, …). */
  readonly finishReason?: string;
  /** The model name the stream reports; defaults to the request's `model`. */
  readonly model?: string;
}

/** A tool call with its id and argument text decided. */
export interface ResolvedToolCall {
  readonly id: string;
  readonly name: string;
  readonly argumentText: string;
  readonly fragments: number;
}

/** Usage with every optional count filled in. */
export interface ResolvedUsage {
  readonly input: number;
  readonly output: number;
  readonly cachedInput: number;
  readonly reasoning: number;
  readonly cacheWrite: number;
}

/** The usage a turn reports when it says nothing. */
export const DEFAULT_USAGE: ScriptedUsage = { input: 10, output: 5 };

/** Fills in a turn's usage: `null` stays `null`, absent becomes {@link DEFAULT_USAGE}. */
export function resolveUsage(usage: ScriptedUsage | null | undefined): ResolvedUsage | null {
  if (usage === null) return null;
  const { input, output, cachedInput = 0, reasoning = 0, cacheWrite = 0 } = usage ??
    DEFAULT_USAGE;
  return { input, output, cachedInput, reasoning, cacheWrite };
}

/** The argument text a scripted call sends. */
export function argumentTextOf(call: ScriptedToolCall): string {
  return call.rawArguments ?? JSON.stringify(call.arguments ?? {});
}

/**
 * Splits text into at most `parts` non-empty pieces of near-equal length,
 * never inside a surrogate pair. Empty text gives no pieces.
 *
 * @example
 * ```ts
 * splitText("abcdef", 3); // ["ab", "cd", "ef"]
 * ```
 */
export function splitText(text: string, parts: number): string[] {
  const chars = Array.from(text);
  const count = Math.max(1, Math.min(Math.floor(parts), chars.length));
  const pieces: string[] = [];
  let start = 0;
  for (let index = 0; index < count && chars.length > 0; index++) {
    const end = Math.round(((index + 1) * chars.length) / count);
    pieces.push(chars.slice(start, end).join(""));
    start = end;
  }
  return pieces;
}
