/**
 * Frontmatter that is not YAML only because a plain value holds `: `
 * (`description: Use it when: the diff is big`), which Claude Code accepts:
 * each such `key: value` line gets its value quoted, so the caller can parse
 * again and warn about the lines it changed.
 *
 * @module
 */

/** The recovered YAML and the 0-based indexes of the lines quoted. */
export interface RecoveredYaml {
  readonly yaml: string;
  readonly lines: readonly number[];
}

// `key: value` with a plain value (not quoted, flow, block, alias, tag or comment).
const KEY_VALUE = /^(\s*(?:-\s+)?[A-Za-z_][\w-]*:[ \t]+)([^\s"'[{|>&*!#%@`].*)$/;

/** The YAML with every plain value containing `: ` quoted, or undefined when none does. */
export function quoteColonValues(yaml: string): RecoveredYaml | undefined {
  const lines: number[] = [];
  const out = yaml.split("\n").map((line, index) => {
    const match = KEY_VALUE.exec(line);
    const value = match?.[2]?.trimEnd();
    if (match === null || value === undefined || !value.includes(": ")) return line;
    lines.push(index);
    return `${match[1]}${JSON.stringify(value)}`;
  });
  return lines.length === 0 ? undefined : { yaml: out.join("\n"), lines };
}
