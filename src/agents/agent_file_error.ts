/**
 * The error of an agent file that cannot be found, read or parsed.
 *
 * @module
 */

/** Where an agent file problem is. */
export interface AgentFileErrorOptions {
  /** The agent file (or the agents folder when no file applies). */
  readonly path: string;
  /** The 1-based line of the first problem, when known. */
  readonly line?: number | undefined;
  /** The frontmatter field of the first problem, e.g. `tools[1]`. */
  readonly field?: string | undefined;
  /** The underlying error. */
  readonly cause?: unknown;
}

/** An agent file problem; the message names the file, the line where known, the field and the fix. */
export class AgentFileError extends Error {
  /** The agent file. */
  readonly path: string;
  /** The 1-based line of the first problem, when known. */
  readonly line: number | undefined;
  /** The frontmatter field of the first problem, when there is one. */
  readonly field: string | undefined;

  /** Builds the error; `message` is complete (one problem per line). */
  constructor(message: string, options: AgentFileErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AgentFileError";
    this.path = options.path;
    this.line = options.line;
    this.field = options.field;
  }
}

/** One problem of an agent file, before it is printed. */
export interface AgentProblem {
  readonly line?: number | undefined;
  readonly field?: string | undefined;
  readonly message: string;
}

/** Prints one problem as `path:line: field: message`, leaving out what is unknown. */
export function formatAgentProblem(path: string, problem: AgentProblem): string {
  const where = problem.line === undefined ? path : `${path}:${problem.line}`;
  return problem.field === undefined
    ? `${where}: ${problem.message}`
    : `${where}: ${problem.field}: ${problem.message}`;
}

/** One error listing every problem, in line order (unlocated ones last). */
export function agentFileError(path: string, problems: readonly AgentProblem[]): AgentFileError {
  const sorted = problems
    .map((problem, index) => ({ problem, index }))
    .sort((a, b) =>
      (a.problem.line ?? Infinity) - (b.problem.line ?? Infinity) || a.index - b.index
    )
    .map(({ problem }) => problem);
  const first = sorted[0];
  return new AgentFileError(sorted.map((problem) => formatAgentProblem(path, problem)).join("\n"), {
    path,
    line: first?.line,
    field: first?.field,
  });
}
