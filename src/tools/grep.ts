/**
 * The built-in `grep` tool: a JavaScript regular expression over the files
 * of a folder (docs/tools.md).
 *
 * ```
 * src/main.ts:12:import { run } from "./cli/run.ts";
 * src/tools/read.ts:40:const DESCRIPTION = `Reads a text file…
 * [3 more matches not shown]
 * ```
 *
 * - The files are those of the folder that the ignore files do not hide
 *   (`.git` never, symbolic links not followed), filtered by `glob`, sorted
 *   by path; binary files and files over 32 MiB are skipped.
 * - The search runs in a worker (`grep_worker.ts`) that compiles the pattern
 *   once. It is terminated on interrupt, when one file takes more than
 *   {@link FILE_BUDGET_MS}, and when the whole call takes more than
 *   {@link CALL_BUDGET_MS} ({@link CALL_BUDGET_VARIABLE}): a pattern that
 *   backtracks for ever cannot freeze the run, nor one that takes almost the
 *   per-file budget on each of many files.
 *
 * @module
 */

import { sep } from "node:path";
import { type Approval, checkGuarded } from "./approval.ts";
import { compileGlob, filesMatching } from "./glob.ts";
import { guardedBelow, type GuardedPath } from "./guarded_paths.ts";
import type { GrepJob, GrepReport } from "./grep_protocol.ts";
import { missingPathMessage } from "./missing_path.ts";
import { errorResult, textResult, type Tool, type ToolResult } from "./tool.ts";
import { notRegularFile } from "./text_file.ts";
import { displayPath, resolveToolPath } from "./tool_paths.ts";
import { MAX_TOOL_RESULT_BYTES } from "./truncate.ts";
import { errorMessage, isRecord } from "../base/unknown.ts";

/** Matching lines shown when `max_results` is not given. */
export const DEFAULT_MAX_RESULTS = 200;

/** How long the search of one file may take before grep gives up on the pattern. */
export const FILE_BUDGET_MS = 2000;

/**
 * How long one call may search in all, unless {@link CALL_BUDGET_VARIABLE}
 * says otherwise: a pattern just under {@link FILE_BUDGET_MS} on each of 100
 * files could hold a call for 200 s.
 */
export const CALL_BUDGET_MS = 20_000;

/** The environment variable that sets the budget of a call, in milliseconds. */
export const CALL_BUDGET_VARIABLE = "RIENDA_GREP_BUDGET_MS";

/** The most files one call searches. */
const MAX_FILES = 100_000;

const MAX_FILE_BYTES = 32 * 1024 * 1024;

const DESCRIPTION = `Searches file contents with a regular expression.

- Prints the matching lines as \`path:line:text\`, sorted by path (context lines as \`path-line-text\`).

- Use it to find where something is defined or used before you read or edit files.
- \`path\` is a folder (default: the workspace) or one file. Files hidden by .gitignore/.ignore, the .git folder and binary files are skipped.
- \`glob\` limits the files searched, e.g. \`*.ts\` (any folder) or \`src/**/*.{ts,tsx}\`.
- The pattern is a JavaScript regular expression (escape \`( ) [ ] { } . * + ? | \\\\\`); it matches within a line (\`^\` and \`$\` are line starts and ends).
- At most \`max_results\` matching lines are shown (default ${DEFAULT_MAX_RESULTS}), then \`[N more matches not shown]\`: narrow the pattern, path or glob.
- Matching lines longer than 500 characters are cut. A pattern that takes more than ${
  FILE_BUDGET_MS / 1000
} s on one file, or a search of more than ${
  CALL_BUDGET_MS / 1000
} s in all, is stopped: simplify the pattern, or narrow path or glob.`;

const PARAMETERS = {
  type: "object",
  properties: {
    pattern: { type: "string", minLength: 1, description: "JavaScript regular expression." },
    path: {
      type: "string",
      description: "Folder or file to search, relative to the workspace. Default: the workspace.",
    },
    glob: {
      type: "string",
      description: "Only search files matching this glob, e.g. `*.ts` or `src/**/*.md`.",
    },
    "ignore_case": { type: "boolean", description: "Match case-insensitively. Default false." },
    context: {
      type: "integer",
      minimum: 0,
      maximum: 10,
      description: "Lines of context to show before and after each match. Default 0.",
    },
    "max_results": {
      type: "integer",
      minimum: 1,
      maximum: 2000,
      description: `The most matching lines to show. Default ${DEFAULT_MAX_RESULTS}.`,
    },
  },
  required: ["pattern"],
  additionalProperties: false,
} as const;

interface GrepArgs {
  readonly pattern: string;
  readonly path: string;
  readonly glob: string | undefined;
  readonly ignoreCase: boolean;
  readonly context: number;
  readonly maxResults: number;
}

/** Reads validated arguments; a wrong type here means the caller skipped validation. */
function readArgs(args: Record<string, unknown>): GrepArgs {
  const { pattern, path = ".", glob, "ignore_case": ignoreCase = false, context = 0 } = args;
  const maxResults = args["max_results"] ?? DEFAULT_MAX_RESULTS;
  if (
    typeof pattern !== "string" || typeof path !== "string" ||
    (glob !== undefined && typeof glob !== "string") || typeof ignoreCase !== "boolean" ||
    typeof context !== "number" || typeof maxResults !== "number"
  ) {
    throw new Error("grep: the arguments do not match the schema");
  }
  return { pattern, path, glob, ignoreCase, context, maxResults };
}

/** How long the worker may take to start and compile the pattern. */
const START_BUDGET_MS = 10_000;

/** How often the main thread looks at the worker's progress. */
const POLL_MS = 100;

/** Checks the message of the worker (its own code, but still input). */
function parseReport(data: unknown): GrepReport {
  const bad = () => new Error("grep: unexpected message from the search worker");
  if (!isRecord(data)) throw bad();
  if (data.type === "invalid" && typeof data.message === "string") {
    return { type: "invalid", message: data.message };
  }
  const { lines } = data;
  const isText = (line: unknown): line is string => typeof line === "string";
  if (data.type !== "done" || !Array.isArray(lines) || !lines.every(isText)) throw bad();
  const count = (name: string): number => {
    const value = data[name];
    if (typeof value !== "number") throw bad();
    return value;
  };
  return {
    type: "done",
    lines,
    matches: count("matches"),
    shownMatches: count("shownMatches"),
    binary: count("binary"),
    unreadable: count("unreadable"),
    tooLarge: count("tooLarge"),
  };
}

/** The budget of a call: {@link CALL_BUDGET_MS}, or the variable's; a string says what is wrong. */
function callBudgetMs(): number | string {
  const value = Deno.env.get(CALL_BUDGET_VARIABLE);
  if (value === undefined || value === "") return CALL_BUDGET_MS;
  const ms = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(ms) || ms === 0) {
    return `${CALL_BUDGET_VARIABLE} must be a whole number of milliseconds above 0 ` +
      `(found ${JSON.stringify(value)}); unset it for the default ${CALL_BUDGET_MS}`;
  }
  return ms;
}

/** Why the watchdog stopped a search: one file too long, or the whole call. */
type Stopped =
  | { readonly stopped: "file"; readonly file: string }
  | { readonly stopped: "call"; readonly file: string; readonly searched: number };

/** Runs `job` in a fresh worker; resolves to its report, or to where it was stopped. */
function runWorker(
  job: Omit<GrepJob, "progress">,
  budgetMs: number,
  signal: AbortSignal,
): Promise<GrepReport | Stopped> {
  const progress = new Int32Array(new SharedArrayBuffer(4));
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./grep_worker.ts", import.meta.url), { type: "module" });
    let seen = 0;
    let since = performance.now();
    let started = 0;
    const watchdog = setInterval(() => {
      const now = performance.now();
      const current = Atomics.load(progress, 0);
      if (current !== seen) {
        if (seen === 0) started = now;
        seen = current;
        since = now;
      }
      const file = job.files[seen - 1];
      if (seen > 0 && now - started > budgetMs && file !== undefined) {
        finish();
        resolve({ stopped: "call", file: file.shown, searched: seen - 1 });
      } else if (now - since > (seen === 0 ? START_BUDGET_MS : FILE_BUDGET_MS)) {
        finish();
        if (file === undefined) reject(new Error("the search worker did not start"));
        else resolve({ stopped: "file", file: file.shown });
      }
    }, Math.min(POLL_MS, budgetMs));
    const finish = () => {
      clearInterval(watchdog);
      signal.removeEventListener("abort", onAbort);
      worker.terminate();
    };
    const onAbort = () => {
      finish();
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    worker.onmessage = (event: MessageEvent<unknown>) => {
      finish();
      try {
        resolve(parseReport(event.data));
      } catch (error) {
        reject(error);
      }
    };
    worker.onerror = (event) => {
      event.preventDefault();
      finish();
      reject(new Error(`the search worker failed: ${event.message}`));
    };
    worker.postMessage({ ...job, progress: progress.buffer });
  });
}

const BACKTRACKING = "catastrophic backtracking (nested quantifiers such as (a+)+ or (.*)*): " +
  "simplify the pattern";

/** The error text of a search the watchdog stopped. */
function stoppedText(stopped: Stopped, files: number, budgetMs: number): string {
  switch (stopped.stopped) {
    case "file":
      return `grep stopped: the pattern took more than ${FILE_BUDGET_MS / 1000} s on ` +
        `${stopped.file}, which usually means ${BACKTRACKING}`;
    case "call":
      return `grep stopped: the search took more than ${formatMs(budgetMs)} in all ` +
        `(${CALL_BUDGET_VARIABLE}) and had searched ${stopped.searched} of ${files} files ` +
        `(it was on ${stopped.file}): narrow path or glob; if every file is slow, that usually ` +
        `means ${BACKTRACKING}`;
    default: {
      const never: never = stopped;
      throw new Error(`unexpected stop ${JSON.stringify(never)}`);
    }
  }
}

/** `20 s`, `500 ms`. */
function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** The result text of a finished search; `leftOut` names rienda's own folders and files it skipped. */
function formatReport(
  report: GrepReport & { type: "done" },
  truncatedWalk: boolean,
  leftOut: readonly string[],
): string {
  const lines = [...report.lines];
  if (report.matches === 0) lines.push("no matches");
  const hidden = report.matches - report.shownMatches;
  if (hidden > 0) lines.push(`[${hidden} more matches not shown]`);
  const skipped = [
    report.binary > 0 ? `${report.binary} binary` : "",
    report.tooLarge > 0 ? `${report.tooLarge} larger than 32 MiB` : "",
    report.unreadable > 0 ? `${report.unreadable} unreadable` : "",
  ].filter((part) => part !== "");
  if (skipped.length > 0) lines.push(`[files skipped: ${skipped.join(", ")}]`);
  if (truncatedWalk) {
    lines.push(`[only the first ${MAX_FILES} files were searched: narrow path or glob]`);
  }
  if (leftOut.length > 0) {
    lines.push(
      `[not searched, rienda's own files: ${
        leftOut.join(", ")
      } (search one by name to ask the user)]`,
    );
  }
  return lines.join("\n");
}

/** The built-in `grep` tool; `approval` decides searches of rienda's own files. */
export function createGrepTool(approval: Approval): Tool {
  return {
    name: "grep",
    description: DESCRIPTION,
    parameters: PARAMETERS,
    async execute(args, context): Promise<ToolResult> {
      const grep = readArgs(args);
      const { workdir, signal } = context;
      const root = resolveToolPath(workdir, grep.path);
      const refusal = await checkGuarded(approval, {
        tool: "grep",
        verb: "search",
        path: root,
        signal,
      });
      if (refusal !== null) return errorResult(refusal);
      const glob = grep.glob === undefined ? null : compileGlob(grep.glob);
      if (typeof glob === "string") return errorResult(glob);
      let info: Deno.FileInfo;
      try {
        info = await Deno.stat(root);
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) {
          return errorResult(await missingPathMessage(workdir, root, signal));
        }
        return errorResult(`cannot search ${displayPath(workdir, root)}: ${errorMessage(error)}`);
      }
      if (!info.isDirectory && !info.isFile) {
        return errorResult(notRegularFile(displayPath(workdir, root)));
      }
      const found = info.isDirectory
        ? await filesMatching({ workdir, root, glob, maxFiles: MAX_FILES, signal })
        : { paths: [root], truncated: false };
      // rienda's own files inside the folder are left out (named, unless one was asked for).
      const skipped = info.isDirectory ? await guardedBelow(approval.guarded ?? [], root) : [];
      const holds = (entry: GuardedPath, path: string) =>
        path === entry.path || path.startsWith(`${entry.path}${sep}`);
      const isSkipped = (path: string) => skipped.some((entry) => holds(entry, path));
      const leftOut = skipped.filter((entry) => found.paths.some((path) => holds(entry, path)));
      const files = found.paths.filter((path) => !isSkipped(path))
        .map((path) => ({ path, shown: displayPath(workdir, path) }))
        .sort((a, b) => (a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0));
      const budgetMs = callBudgetMs();
      if (typeof budgetMs === "string") return errorResult(budgetMs);
      const report = await runWorker(
        {
          pattern: grep.pattern,
          ignoreCase: grep.ignoreCase,
          context: grep.context,
          maxResults: grep.maxResults,
          maxBytes: MAX_TOOL_RESULT_BYTES - 4096,
          maxFileBytes: MAX_FILE_BYTES,
          files,
        },
        budgetMs,
        signal,
      );
      if ("stopped" in report) return errorResult(stoppedText(report, files.length, budgetMs));
      if (report.type === "invalid") {
        return errorResult(
          `the pattern is not a valid JavaScript regular expression: ${report.message}`,
        );
      }
      const named = leftOut.map((entry) => displayPath(workdir, entry.path));
      return textResult(formatReport(report, found.truncated, named));
    },
  };
}
