/**
 * The cassette file (docs/testing.md, "The cassette"): JSON lines, a header
 * first, then one line per HTTP exchange with the provider, in the order
 * they happened.
 *
 * ```jsonl
 * {"type":"header","format":1,"rienda":"0.1.0","agent":"coder"}
 * {"type":"exchange","turn":1,"attempt":1,"protocol":"anthropic","provider":"anthropic",
 *  "model":"anthropic/claude-sonnet-4-5","request":{…},"response":{"status":200,…}}
 * ```
 *
 * Everything read from a cassette is checked here, by {@link parseCassette};
 * a bad line is one error naming the file, the line and the field.
 *
 * @module
 */

import { SUPPORTED_PROTOCOLS, type WireProtocol } from "../providers/client.ts";
import { isProviderErrorKind, type ProviderErrorKind } from "../providers/error_kind.ts";
import { isRecord } from "../base/unknown.ts";

/** The version of the format this build writes and reads. */
export const CASSETTE_FORMAT = 1;

/** The first line: who recorded the cassette. */
export interface CassetteHeader {
  readonly type: "header";
  readonly format: typeof CASSETTE_FORMAT;
  /** The rienda version that recorded it. */
  readonly rienda: string;
  /** The id of the agent that ran. */
  readonly agent: string;
}

/** A failure as recorded: a provider error keeps its kind, anything else is its message. */
export interface RecordedError {
  readonly message: string;
  /** Present when rienda had already classified the failure (a timeout). */
  readonly kind?: ProviderErrorKind;
}

/** The request as sent, without credentials. */
export interface RecordedRequest {
  readonly method: string;
  /** Origin and path: never user info or a query. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON body, parsed. */
  readonly body: unknown;
}

/** How a response body ended. */
export type BodyEnd =
  | { readonly kind: "complete" }
  /** rienda stopped reading (it had what it needed). */
  | { readonly kind: "cancelled" }
  | { readonly kind: "error"; readonly error: RecordedError };

/** The response as received: status, the headers rienda reads, the body in its chunks. */
export type RecordedResponse =
  | {
    readonly kind: "http";
    readonly status: number;
    readonly headers: Readonly<Record<string, string>>;
    /** The body as it arrived, chunk by chunk (UTF-8 decoded). */
    readonly chunks: readonly string[];
    readonly end: BodyEnd;
  }
  /** No response: the request failed (network, timeout). */
  | { readonly kind: "failed"; readonly error: RecordedError };

/** One HTTP exchange with the provider. */
export interface Exchange {
  readonly type: "exchange";
  /** The model request it belongs to, from 1 (docs/testing.md: a turn). */
  readonly turn: number;
  /** The attempt within the turn, from 1 (a retry is the next attempt). */
  readonly attempt: number;
  /** The wait before this attempt, as the retry announced it; absent on a first attempt. */
  readonly waitMs?: number;
  readonly protocol: WireProtocol;
  readonly provider: string;
  /** The `provider/model` reference. */
  readonly model: string;
  readonly request: RecordedRequest;
  readonly response: RecordedResponse;
}

/** A whole cassette. */
export interface Cassette {
  readonly header: CassetteHeader;
  readonly exchanges: readonly Exchange[];
}

/** A cassette that cannot be read. */
export class CassetteError extends Error {
  override name = "CassetteError";
}

/** The header line, as written. */
export function headerLine(header: Omit<CassetteHeader, "type" | "format">): string {
  return `${JSON.stringify({ type: "header", format: CASSETTE_FORMAT, ...header })}\n`;
}

/** The line of one exchange, as written (snake_case keys, like every file rienda writes). */
export function exchangeLine(exchange: Exchange): string {
  const { response } = exchange;
  const wire = {
    type: "exchange",
    turn: exchange.turn,
    attempt: exchange.attempt,
    ...(exchange.waitMs === undefined ? {} : { "wait_ms": exchange.waitMs }),
    protocol: exchange.protocol,
    provider: exchange.provider,
    model: exchange.model,
    request: exchange.request,
    response: response.kind === "failed" ? { error: response.error } : {
      status: response.status,
      headers: response.headers,
      chunks: response.chunks,
      end: response.end.kind,
      ...(response.end.kind === "error" ? { error: response.end.error } : {}),
    },
  };
  return `${JSON.stringify(wire)}\n`;
}

/** Reads a field; a problem throws with the path of the field. */
type Check<T> = (value: unknown, field: string) => T;

class FieldProblem extends Error {
  constructor(readonly field: string, problem: string) {
    super(problem);
  }
}

const text: Check<string> = (value, field) => {
  if (typeof value !== "string") throw new FieldProblem(field, "must be a string");
  return value;
};

function count(min: number): Check<number> {
  return (value, field) => {
    if (typeof value !== "number" || !Number.isInteger(value) || value < min) {
      throw new FieldProblem(field, `must be a whole number of at least ${min}`);
    }
    return value;
  };
}

const record: Check<Record<string, unknown>> = (value, field) => {
  if (!isRecord(value)) throw new FieldProblem(field, "must be an object");
  return value;
};

const stringMap: Check<Record<string, string>> = (value, field) =>
  Object.fromEntries(
    Object.entries(record(value, field)).map((
      [key, entry],
    ) => [key, text(entry, `${field}.${key}`)]),
  );

const recordedError: Check<RecordedError> = (value, field) => {
  const error = record(value, field);
  const message = text(error.message, `${field}.message`);
  if (error.kind === undefined) return { message };
  if (!isProviderErrorKind(error.kind)) {
    throw new FieldProblem(`${field}.kind`, "is not a provider error kind");
  }
  return { message, kind: error.kind };
};

const protocol: Check<WireProtocol> = (value, field) => {
  const found = SUPPORTED_PROTOCOLS.find((known) => known === value);
  if (found === undefined) {
    throw new FieldProblem(field, `must be one of ${SUPPORTED_PROTOCOLS.join(", ")}`);
  }
  return found;
};

function bodyEnd(response: Record<string, unknown>): BodyEnd {
  switch (response.end) {
    case "complete":
      return { kind: "complete" };
    case "cancelled":
      return { kind: "cancelled" };
    case "error":
      return { kind: "error", error: recordedError(response.error, "response.error") };
    default:
      throw new FieldProblem("response.end", "must be complete, cancelled or error");
  }
}

function parseResponse(value: unknown): RecordedResponse {
  const response = record(value, "response");
  if (response.status === undefined) {
    return { kind: "failed", error: recordedError(response.error, "response.error") };
  }
  const status = count(200)(response.status, "response.status");
  if (status > 599) throw new FieldProblem("response.status", "must be an HTTP status");
  if (!Array.isArray(response.chunks)) {
    throw new FieldProblem("response.chunks", "must be a list of strings");
  }
  return {
    kind: "http",
    status,
    headers: stringMap(response.headers, "response.headers"),
    chunks: response.chunks.map((chunk, index) => text(chunk, `response.chunks[${index}]`)),
    end: bodyEnd(response),
  };
}

function parseExchange(line: Record<string, unknown>): Exchange {
  if (line.type !== "exchange") throw new FieldProblem("type", 'must be "exchange"');
  // Read in the order of the line, so the first problem is the one reported.
  const turn = count(1)(line.turn, "turn");
  const attempt = count(1)(line.attempt, "attempt");
  const waitMs = line.wait_ms === undefined ? undefined : count(0)(line.wait_ms, "wait_ms");
  const wire = protocol(line.protocol, "protocol");
  const provider = text(line.provider, "provider");
  const model = text(line.model, "model");
  const request = record(line.request, "request");
  return {
    type: "exchange",
    turn,
    attempt,
    ...(waitMs === undefined ? {} : { waitMs }),
    protocol: wire,
    provider,
    model,
    request: {
      method: text(request.method, "request.method"),
      url: text(request.url, "request.url"),
      headers: stringMap(request.headers, "request.headers"),
      body: request.body,
    },
    response: parseResponse(line.response),
  };
}

function parseHeader(line: Record<string, unknown>): CassetteHeader {
  if (line.type !== "header") {
    throw new FieldProblem("type", 'must be "header" on the first line (is this a cassette?)');
  }
  if (line.format !== CASSETTE_FORMAT) {
    throw new FieldProblem(
      "format",
      `is ${JSON.stringify(line.format)}, this rienda reads format ${CASSETTE_FORMAT}`,
    );
  }
  return {
    type: "header",
    format: CASSETTE_FORMAT,
    rienda: text(line.rienda, "rienda"),
    agent: text(line.agent, "agent"),
  };
}

/**
 * Reads a cassette's text.
 *
 * @throws {CassetteError} naming `file`, the line and the field of the first problem
 */
export function parseCassette(source: string, file: string): Cassette {
  const lines = source.split("\n");
  let header: CassetteHeader | undefined;
  const exchanges: Exchange[] = [];
  for (const [index, raw] of lines.entries()) {
    if (raw.trim() === "") continue;
    const where = `${file}: line ${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      throw new CassetteError(`${where} is not JSON: record the cassette again with --record`);
    }
    try {
      const line = record(value, "line");
      if (header === undefined) header = parseHeader(line);
      else exchanges.push(parseExchange(line));
    } catch (error) {
      if (!(error instanceof FieldProblem)) throw error;
      throw new CassetteError(
        `${where}: ${error.field} ${error.message}: record the cassette again with --record`,
      );
    }
  }
  if (header === undefined) {
    throw new CassetteError(`${file} is empty: record it with rienda run --record ${file}`);
  }
  return { header, exchanges };
}
