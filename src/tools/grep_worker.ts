/**
 * The worker behind the `grep` tool: compiles the pattern once, reads the
 * files it is given in order and reports the matching lines. It runs in a
 * worker so that a pattern that backtracks for ever can be stopped: the main
 * thread terminates it on interrupt, or when one file takes longer than the
 * per-file budget (`grep.ts`). It stores the index of the file it searches
 * in the job's shared `progress` cell, so the main thread can tell.
 *
 * @module
 */

/// <reference no-default-lib="true" />
/// <reference lib="deno.worker" />

import type { GrepJob, GrepReport } from "./grep_protocol.ts";
import { cutLine, looksBinary } from "./text_file.ts";
import { utf8ByteLength } from "./truncate.ts";

/** Matching lines are cut to this many characters. */
const MAX_LINE_CHARS = 500;

const decoder = new TextDecoder("utf-8", { fatal: false });

/** The 1-based numbers of the lines of `text` where `regex` matches, in order. */
function matchingLines(text: string, regex: RegExp): number[] {
  const lines: number[] = [];
  let line = 1;
  let counted = 0;
  regex.lastIndex = 0;
  for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
    for (let at = text.indexOf("\n", counted); at !== -1 && at < match.index;) {
      line++;
      counted = at + 1;
      at = text.indexOf("\n", counted);
    }
    lines.push(line);
    const end = text.indexOf("\n", match.index);
    if (end === -1) break;
    // On to the next line: each line is reported once.
    regex.lastIndex = end + 1;
  }
  return lines;
}

/** Formats one file's matching lines (and their context lines) into `out`. */
function formatFile(
  shown: string,
  text: string,
  matches: readonly number[],
  context: number,
  out: string[],
): void {
  const lines = text.split("\n");
  const matched = new Set(matches);
  let last = 0;
  for (const number of matches) {
    const from = Math.max(number - context, last + 1);
    const to = Math.min(number + context, lines.length);
    if (context > 0 && last > 0 && from > last + 1) out.push("--");
    for (let at = from; at <= to; at++) {
      const separator = matched.has(at) ? ":" : "-";
      out.push(
        `${shown}${separator}${at}${separator}${cutLine(lines[at - 1] ?? "", MAX_LINE_CHARS)}`,
      );
    }
    last = Math.max(last, to);
  }
}

function search(job: GrepJob): GrepReport {
  let regex: RegExp;
  try {
    regex = new RegExp(job.pattern, job.ignoreCase ? "gim" : "gm");
  } catch (error) {
    return { type: "invalid", message: error instanceof Error ? error.message : String(error) };
  }
  const out: string[] = [];
  let bytes = 0;
  let matches = 0;
  let shownMatches = 0;
  let binary = 0;
  let unreadable = 0;
  let tooLarge = 0;
  const progress = new Int32Array(job.progress);
  job.files.forEach((file, index) => {
    Atomics.store(progress, 0, index + 1);
    let data: Uint8Array;
    try {
      if (Deno.statSync(file.path).size > job.maxFileBytes) return void tooLarge++;
      data = Deno.readFileSync(file.path);
    } catch {
      return void unreadable++;
    }
    if (looksBinary(data)) return void binary++;
    let text = decoder.decode(data);
    if (text.includes("\r\n")) text = text.replaceAll("\r\n", "\n");
    const found = matchingLines(text, regex);
    matches += found.length;
    const room = Math.min(job.maxResults - shownMatches, found.length);
    if (room <= 0 || bytes > job.maxBytes) return;
    const kept = found.slice(0, room);
    const lines: string[] = [];
    if (job.context > 0 && out.length > 0) lines.push("--");
    formatFile(file.shown, text, kept, job.context, lines);
    const size = lines.reduce((sum, line) => sum + utf8ByteLength(line) + 1, 0);
    if (bytes + size > job.maxBytes && out.length > 0) {
      bytes = job.maxBytes + 1;
      return;
    }
    out.push(...lines);
    bytes += size;
    shownMatches += kept.length;
  });
  return { type: "done", lines: out, matches, shownMatches, binary, unreadable, tooLarge };
}

self.onmessage = (event: MessageEvent<GrepJob>) => {
  self.postMessage(search(event.data));
};
