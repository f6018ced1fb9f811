/**
 * The messages between the `grep` tool and its worker (`grep_worker.ts`).
 *
 * @module
 */

/** One file to search. */
export interface GrepFile {
  /** Absolute path. */
  readonly path: string;
  /** The name printed before each of its lines. */
  readonly shown: string;
}

/** What the worker is asked to do (its only incoming message). */
export interface GrepJob {
  readonly pattern: string;
  readonly ignoreCase: boolean;
  /** Lines of context before and after each match. */
  readonly context: number;
  /** The most matching lines printed. */
  readonly maxResults: number;
  /** The most bytes of lines printed. */
  readonly maxBytes: number;
  /** Larger files are skipped. */
  readonly maxFileBytes: number;
  /** In the order they are printed. */
  readonly files: readonly GrepFile[];
  /**
   * One Int32 the worker sets to the index + 1 of the file it is searching,
   * so the main thread sees a file that takes too long without any message.
   */
  readonly progress: SharedArrayBuffer;
}

/** The worker's only message: the pattern did not compile, or the search is done. */
export type GrepReport =
  | { readonly type: "invalid"; readonly message: string }
  | {
    readonly type: "done";
    /** The printed lines, `path:line:text` (context lines `path-line-text`, groups split by `--`). */
    readonly lines: readonly string[];
    /** Matching lines in all. */
    readonly matches: number;
    /** Matching lines printed. */
    readonly shownMatches: number;
    /** Files skipped as binary, unreadable, or too large. */
    readonly binary: number;
    readonly unreadable: number;
    readonly tooLarge: number;
  };
