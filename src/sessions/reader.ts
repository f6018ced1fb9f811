/**
 * Reads a session file without ever losing history silently: a torn last
 * line (a crash mid-write) is skipped with a warning, unknown kinds are
 * kept, and anything else that is wrong is an error naming the file and line.
 *
 * @module
 */

import type { Entry, HeaderEntry } from "./entries.ts";
import { parseEntry, parseHeader } from "./parse_entry.ts";
import { errorMessage } from "../base/unknown.ts";

/** A session file that cannot be read as a whole; `line` is 1-based when known. */
export class SessionFileError extends Error {
  readonly file: string;
  readonly line: number | null;

  constructor(file: string, line: number | null, problem: string, options?: ErrorOptions) {
    super(`${file}${line === null ? "" : `:${line}`}: ${problem}`, options);
    this.name = "SessionFileError";
    this.file = file;
    this.line = line;
  }
}

/** Where the next line of a file goes, as found when it was read. */
export interface SessionFileEnd {
  /** Size of the file when read. */
  readonly fileBytes: number;
  /** Bytes of the lines kept; a torn last line lies beyond. */
  readonly keptBytes: number;
  /** The last kept line has no newline, so an appender must write one first. */
  readonly missingNewline: boolean;
}

/** The decoded content of one session file. */
export interface SessionData {
  readonly path: string;
  readonly header: HeaderEntry;
  /** Every entry after the header, in file order. */
  readonly entries: readonly Entry[];
  /** Problems that lost nothing, e.g. a torn last line, each naming the file and line. */
  readonly warnings: readonly string[];
  readonly end: SessionFileEnd;
}

const NEWLINE = 0x0a;

/**
 * Reads and checks the session file at `path`.
 *
 * @throws {SessionFileError} for a missing or invalid header, a corrupt line
 * before the last, a duplicate id, or a reference to no earlier entry
 */
export async function readSessionFile(path: string): Promise<SessionData> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
  } catch (error) {
    const problem = error instanceof Deno.errors.NotFound
      ? "no such session file"
      : `cannot read the session file: ${errorMessage(error)}`;
    throw new SessionFileError(path, null, problem, { cause: error });
  }
  return parseSessionBytes(path, bytes);
}

/** The session held by `bytes`, read from `path` (named in errors). */
export function parseSessionBytes(path: string, bytes: Uint8Array): SessionData {
  const text = new TextDecoder().decode(bytes);
  const warnings: string[] = [];
  const entries: Entry[] = [];
  const checker = createReferenceChecker(path);
  let header: HeaderEntry | null = null;
  let keptBytes = bytes.length;
  let lineNumber = 0;
  let start = 0;
  while (start < text.length) {
    const newline = text.indexOf("\n", start);
    const stop = newline === -1 ? text.length : newline;
    const next = newline === -1 ? text.length : newline + 1;
    lineNumber++;
    // No trim: JSON.parse allows surrounding whitespace; blank lines are told apart on failure.
    const line = stop > start ? text.slice(start, stop) : "";
    if (line !== "") {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        if (line.trim() === "") {
          start = next;
          continue;
        }
        if (text.slice(next).trim() !== "") {
          throw new SessionFileError(
            path,
            lineNumber,
            `corrupt line: ${errorMessage(error)} (repair or delete the line to use the session)`,
            { cause: error },
          );
        }
        warnings.push(
          `${path}:${lineNumber}: skipped a truncated last line (a write was cut short)`,
        );
        keptBytes = bytes.length - new TextEncoder().encode(text.slice(start)).length;
        break;
      }
      if (header === null) {
        header = headerOf(path, lineNumber, value);
      } else {
        const entry = entryOf(path, lineNumber, value);
        checker.check(entry, lineNumber);
        entries.push(entry);
      }
    }
    start = next;
  }
  if (header === null) {
    throw new SessionFileError(path, null, "the file has no header line (it is not a session)");
  }
  const missingNewline = keptBytes > 0 && bytes[keptBytes - 1] !== NEWLINE;
  return {
    path,
    header,
    entries,
    warnings,
    end: { fileBytes: bytes.length, keptBytes, missingNewline },
  };
}

function headerOf(path: string, line: number, value: unknown): HeaderEntry {
  try {
    return parseHeader(value);
  } catch (error) {
    throw new SessionFileError(path, line, `invalid header: ${errorMessage(error)}`, {
      cause: error,
    });
  }
}

function entryOf(path: string, line: number, value: unknown): Entry {
  try {
    return parseEntry(value);
  } catch (error) {
    throw new SessionFileError(path, line, `invalid entry: ${errorMessage(error)}`, {
      cause: error,
    });
  }
}

/** Checks ids are unique and every reference names an earlier entry. */
function createReferenceChecker(path: string) {
  const ids = new Set<string>();
  function reference(line: number, field: string, id: string): void {
    if (id !== "" && !ids.has(id)) {
      throw new SessionFileError(
        path,
        line,
        `${field} "${id}" references no earlier entry (the history is broken)`,
      );
    }
  }
  return {
    check(entry: Entry, line: number): void {
      if (entry.id !== null && ids.has(entry.id)) {
        throw new SessionFileError(path, line, `duplicate entry id "${entry.id}"`);
      }
      switch (entry.kind) {
        case "unknown":
          break; // kinds we do not know are kept, not judged
        case "compaction":
          reference(line, "parentId", entry.parentId);
          reference(line, "keptId", entry.keptId);
          break;
        case "leaf":
          reference(line, "parentId", entry.parentId);
          reference(line, "targetId", entry.targetId);
          break;
        case "message":
        case "agent":
        case "model":
        case "thinking":
        case "title":
        case "tool_start":
        case "hook_denial":
        case "hook_stop":
        case "failure":
          reference(line, "parentId", entry.parentId);
          break;
        default:
          entry satisfies never;
      }
      if (entry.id !== null) ids.add(entry.id);
    },
  };
}
