import assert from "node:assert/strict";
import { junitReport } from "./junit.ts";

Deno.test("the JUnit report escapes names and failures and drops characters XML cannot hold", () => {
  const report = junitReport([
    { name: "a&b.test.yaml", seconds: 0.5, failure: null },
    {
      name: "c.test.yaml",
      seconds: 1.25,
      failure: ['stdout equals: expected "<x>", actual "\u0007"'],
    },
  ]);
  assert.ok(
    report.includes('<testcase classname="rienda test" name="a&amp;b.test.yaml" time="0.500"/>'),
  );
  assert.ok(report.includes('tests="2" failures="1" errors="0" time="1.750"'));
  assert.ok(
    report.includes(
      '<failure message="stdout equals: expected &quot;&lt;x&gt;&quot;, actual &quot;\uFFFD&quot;">',
    ),
    report,
  );
  assert.ok(!report.includes("\u0007"));
});
