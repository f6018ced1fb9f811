import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import { AgentFileError } from "./agent_file_error.ts";
import { splitFrontmatter } from "./frontmatter.ts";

const PATH = "/h/.rienda/agents/review.md";

Deno.test("splitFrontmatter() separates the YAML from the body", () => {
  deepStrictEqual(splitFrontmatter("---\ndescription: x\nmodel: a/b\n---\nHello\n", PATH), {
    yaml: "description: x\nmodel: a/b",
    yamlStartLine: 2,
    body: "Hello\n",
  });
});

Deno.test("splitFrontmatter() keeps a shebang line apart and shifts the YAML line", () => {
  deepStrictEqual(
    splitFrontmatter("#!/usr/bin/env -S rienda run -f\n---\ndescription: x\n---\nHi", PATH),
    {
      yaml: "description: x",
      yamlStartLine: 3,
      body: "Hi",
      shebang: "#!/usr/bin/env -S rienda run -f",
    },
  );
});

Deno.test("splitFrontmatter() strips a byte-order mark and accepts CRLF line ends", () => {
  deepStrictEqual(
    splitFrontmatter("\uFEFF#!/bin/rienda\r\n---\r\ndescription: x\r\n---\r\nA\r\nB\r\n", PATH),
    { yaml: "description: x", yamlStartLine: 3, body: "A\nB\n", shebang: "#!/bin/rienda" },
  );
  strictEqual(splitFrontmatter("\uFEFF---\n---\n", PATH).yamlStartLine, 2);
});

Deno.test("splitFrontmatter() closes on ... and tolerates trailing spaces on delimiters", () => {
  deepStrictEqual(splitFrontmatter("---  \ndescription: x\n...\nbody", PATH), {
    yaml: "description: x",
    yamlStartLine: 2,
    body: "body",
  });
  strictEqual(splitFrontmatter("---\na: 1\n--- \n---\n", PATH).body, "---\n");
});

Deno.test("splitFrontmatter() accepts an empty frontmatter and an empty body", () => {
  deepStrictEqual(splitFrontmatter("---\n---", PATH), { yaml: "", yamlStartLine: 2, body: "" });
});

Deno.test("splitFrontmatter() rejects a file without frontmatter at line 1", () => {
  for (const text of ["You are helpful.\n", "", "\n---\ndescription: x\n---\n"]) {
    throws(() => splitFrontmatter(text, PATH), {
      name: "AgentFileError",
      message: `${PATH}:1: missing frontmatter (the file must start with a "---" line, ` +
        'then fields such as "description: Reviews a diff.", then a closing "---" line)',
      path: PATH,
      line: 1,
    });
  }
});

Deno.test("splitFrontmatter() rejects a shebang not followed by frontmatter at line 2", () => {
  throws(() => splitFrontmatter("#!/usr/bin/env rienda\ndescription: x\n", PATH), {
    message: `${PATH}:2: missing frontmatter (the file must start with a "---" line, ` +
      'then fields such as "description: Reviews a diff.", then a closing "---" line)',
    line: 2,
  });
});

Deno.test("splitFrontmatter() rejects an unterminated frontmatter at its opening line", () => {
  throws(() => splitFrontmatter("#!/x\r\n---\r\ndescription: x\r\nbody\r\n", PATH), (error) => {
    strictEqual(error instanceof AgentFileError, true);
    strictEqual(
      error instanceof AgentFileError && error.message,
      `${PATH}:2: unterminated frontmatter (add a closing "---" line after the fields)`,
    );
    strictEqual(error instanceof AgentFileError && error.line, 2);
    return true;
  });
});
