/**
 * The repository's own text stands on its own: no source file, script, test
 * or page refers to an issue by number or to a path of the machine it was
 * written on (the README and docs/ are the product's own documentation).
 */

import assert from "node:assert/strict";
import { CHECKOUT_DIR } from "./harness/rienda.ts";

/** The folders checked, below the checkout; `tests/testdata/` holds foreign text and is skipped. */
const FOLDERS = ["src", "scripts", "tests", "docs", "examples"];

/** What may not appear: `issue 5`, `Issue #12`, `issues 3 and 4`, and this machine's shared folder. */
const FORBIDDEN = [/\bissues? #?\d+/i, /\/work\/(shared|main|wt)\b/];

async function ownFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory && path !== `${CHECKOUT_DIR}/tests/testdata`) {
      files.push(...await ownFiles(path));
    } else if (entry.isFile && /\.(ts|js|md)$/.test(entry.name)) files.push(path);
  }
  return files;
}

Deno.test("no file of the repository refers to an issue number or a path of this machine", async () => {
  const files = [`${CHECKOUT_DIR}/README.md`];
  for (const folder of FOLDERS) files.push(...await ownFiles(`${CHECKOUT_DIR}/${folder}`));
  const self = new URL(import.meta.url).pathname;
  const found: string[] = [];
  for (const file of files) {
    if (file === self) continue;
    const lines = (await Deno.readTextFile(file)).split("\n");
    lines.forEach((line, index) => {
      if (FORBIDDEN.some((pattern) => pattern.test(line))) {
        found.push(`${file.slice(CHECKOUT_DIR.length + 1)}:${index + 1}: ${line.trim()}`);
      }
    });
  }
  assert.deepEqual(found, []);
});
