/**
 * The JUnit XML report of `rienda test --junit FILE`: one `<testsuite>`, one
 * `<testcase>` per case file (named by its path), a `<failure>` listing the
 * failed expectations. The shape CI systems (GitHub Actions reporters,
 * GitLab, Jenkins) read. Written by hand: the document is a dozen fixed
 * lines, and its one risk, escaping, is a function tested here (an XML
 * library would load far more for `rienda test` than it writes).
 *
 * @module
 */

/** One case's outcome, as the report shows it. */
export interface ReportedCase {
  /** The case file as shown (relative to the current folder). */
  readonly name: string;
  readonly seconds: number;
  /** Null when the case passed; else one line per failed expectation or the error. */
  readonly failure: readonly string[] | null;
}

/** Characters XML 1.0 cannot hold at all (controls other than tab, line feed, carriage return). */
// deno-lint-ignore no-control-regex
const NOT_XML_REGEXP = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** Text escaped for an XML attribute or element. */
function escaped(text: string): string {
  return text.replace(NOT_XML_REGEXP, "\uFFFD").replace(
    /[&<>"']/g,
    (char) =>
      ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[char] ?? char,
  );
}

/** The report of `cases`. */
export function junitReport(cases: readonly ReportedCase[]): string {
  const failures = cases.filter((test) => test.failure !== null).length;
  const total = cases.reduce((sum, test) => sum + test.seconds, 0);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="rienda test" tests="${cases.length}" failures="${failures}" time="${
      total.toFixed(3)
    }">`,
    `  <testsuite name="rienda test" tests="${cases.length}" failures="${failures}" errors="0" time="${
      total.toFixed(3)
    }">`,
  ];
  for (const test of cases) {
    const open = `    <testcase classname="rienda test" name="${escaped(test.name)}" time="${
      test.seconds.toFixed(3)
    }"`;
    if (test.failure === null) {
      lines.push(`${open}/>`);
      continue;
    }
    const message = escaped(test.failure[0] ?? "failed");
    lines.push(
      `${open}>`,
      `      <failure message="${message}">${escaped(test.failure.join("\n"))}</failure>`,
      "    </testcase>",
    );
  }
  lines.push("  </testsuite>", "</testsuites>", "");
  return lines.join("\n");
}
