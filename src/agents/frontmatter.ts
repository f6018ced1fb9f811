/**
 * Splits an agent file into its optional shebang line, its YAML frontmatter
 * and its body (docs/formats.md, "Agent files"):
 *
 * ```
 * #!/usr/bin/env -S rienda run -f
 * ---
 * description: Reviews a diff.
 * ---
 * You are a careful reviewer.
 * ```
 *
 * A byte-order mark and CRLF line ends are accepted; the frontmatter closes
 * with `---` or `...`.
 *
 * @module
 */

import { AgentFileError } from "./agent_file_error.ts";

/** The parts of an agent file. */
export interface Frontmatter {
  /** The YAML between the delimiters, with LF line ends. */
  readonly yaml: string;
  /** The 1-based file line of the first YAML line (to report YAML errors at file lines). */
  readonly yamlStartLine: number;
  /** Everything after the closing delimiter, with LF line ends. */
  readonly body: string;
  /** The first line when it starts with `#!`. */
  readonly shebang?: string;
}

const OPENING = "---";
const CLOSINGS: ReadonlySet<string> = new Set(["---", "..."]);

/**
 * Splits `text`; `path` names the file in errors.
 *
 * @throws {AgentFileError} when the frontmatter is missing or never closed
 * @example
 * ```ts
 * import { splitFrontmatter } from "./frontmatter.ts";
 * splitFrontmatter("---\ndescription: x\n---\nHi\n", "a.md");
 * // { yaml: "description: x", yamlStartLine: 2, body: "Hi\n" }
 * ```
 */
export function splitFrontmatter(text: string, path: string): Frontmatter {
  const lines = text.replace(/^\uFEFF/, "").replaceAll("\r\n", "\n").split("\n");
  const shebang = lines[0]?.startsWith("#!") ? lines[0] : undefined;
  const open = shebang === undefined ? 0 : 1;
  if (lines[open]?.trimEnd() !== OPENING) {
    throw new AgentFileError(
      `${path}:${open + 1}: missing frontmatter (the file must start with a "---" line, ` +
        `then fields such as "description: Reviews a diff.", then a closing "---" line)`,
      { path, line: open + 1 },
    );
  }
  const close = lines.findIndex((line, index) => index > open && CLOSINGS.has(line.trimEnd()));
  if (close < 0) {
    throw new AgentFileError(
      `${path}:${open + 1}: unterminated frontmatter (add a closing "---" line after the fields)`,
      { path, line: open + 1 },
    );
  }
  return {
    yaml: lines.slice(open + 1, close).join("\n"),
    yamlStartLine: open + 2,
    body: lines.slice(close + 1).join("\n"),
    ...(shebang === undefined ? {} : { shebang }),
  };
}
