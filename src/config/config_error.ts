/**
 * The error of an unreadable or invalid configuration file.
 *
 * @module
 */

/** Where a configuration problem is. */
export interface ConfigErrorOptions {
  /** The configuration file. */
  readonly file: string;
  /** The key path of the first problem, e.g. `providers.local.base_url`. */
  readonly field?: string | undefined;
  /** The 1-based line of the first problem, when known. */
  readonly line?: number | undefined;
  /** The underlying error. */
  readonly cause?: unknown;
}

/** A configuration file that cannot be read or is invalid; the message names the file and the key. */
export class ConfigError extends Error {
  /** The configuration file. */
  readonly file: string;
  /** The key path of the first problem, when there is one. */
  readonly field: string | undefined;
  /** The 1-based line of the first problem, when known. */
  readonly line: number | undefined;

  /** Builds the error; `message` is complete (one problem per line). */
  constructor(message: string, options: ConfigErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ConfigError";
    this.file = options.file;
    this.field = options.field;
    this.line = options.line;
  }
}
