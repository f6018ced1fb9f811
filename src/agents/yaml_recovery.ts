/**
 * Frontmatter that is not YAML only because a plain value holds `: `
 * (`description: Use it when: the diff is big`), which Claude Code accepts:
 * each such `key: value` gets its value quoted, so the caller can parse
 * again and warn about the lines it changed.
 *
 * A plain value may go on over more-indented lines, as the official Claude
 * Code plugin agents write their examples:
 *
 * ```
 * description: Use this agent after a change. Examples:
 *   Context: the user wrote a function
 *   user: "review it"
 * ```
 *
 * Such a value becomes one double-quoted scalar over the same lines (YAML
 * folds a quoted scalar's lines as it folds a plain one's), so every later
 * line keeps its number.
 *
 * @module
 */

/** The recovered YAML and the 0-based indexes of the lines quoted (the first line of each value). */
export interface RecoveredYaml {
  readonly yaml: string;
  readonly lines: readonly number[];
}

// `key: value` with a plain value (not quoted, flow, block, alias, tag or comment).
const KEY_VALUE = /^(\s*(?:-\s+)?[A-Za-z_][\w-]*:[ \t]+)([^\s"'[{|>&*!#%@`].*)$/;

/** The YAML with every plain value containing `: ` quoted, or undefined when none does. */
export function quoteColonValues(yaml: string): RecoveredYaml | undefined {
  const input = yaml.split("\n");
  const out: string[] = [];
  const lines: number[] = [];
  for (let index = 0; index < input.length; index++) {
    const line = input[index] ?? "";
    const match = KEY_VALUE.exec(line);
    const first = match?.[2]?.trimEnd();
    if (match === null || first === undefined) {
      out.push(line);
      continue;
    }
    const continued = continuationOf(input, index, indentOf(line));
    const parts = [first, ...continued.map((part) => part.trim())];
    if (!parts.some((part) => part.includes(": ") || part.endsWith(":"))) {
      out.push(line);
      continue;
    }
    lines.push(index);
    out.push(...quoted(match[1] ?? "", first, continued, indentOf(line) + 2));
    index += continued.length;
  }
  return lines.length === 0 ? undefined : { yaml: out.join("\n"), lines };
}

// The lines after `index` indented deeper than `indent` (blank ones between them too).
function continuationOf(input: readonly string[], index: number, indent: number): string[] {
  let end = index + 1;
  let last = index;
  while (end < input.length) {
    const next = input[end] ?? "";
    if (next.trim() === "") {
      end++;
      continue;
    }
    if (indentOf(next) <= indent || next.trimStart().startsWith("#")) break;
    last = end;
    end++;
  }
  return input.slice(index + 1, last + 1);
}

// `key: "first` … `last"`: a double-quoted scalar over the same lines, escapes added.
function quoted(
  key: string,
  first: string,
  continued: readonly string[],
  indent: number,
): string[] {
  const escape = (text: string) => text.replaceAll("\\", "\\\\").replaceAll('"', '\\"');
  if (continued.length === 0) return [`${key}${JSON.stringify(first)}`];
  const pad = " ".repeat(indent);
  const body = continued.map((part) => part.trim() === "" ? "" : `${pad}${escape(part.trim())}`);
  body[body.length - 1] += '"';
  return [`${key}"${escape(first)}`, ...body];
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}
