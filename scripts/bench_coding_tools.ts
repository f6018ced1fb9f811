/**
 * Costs of the built-in file tools for `deno task bench`:
 *
 * - `grep` and `find` over a copy of this repository (its git-tracked files)
 *   with a `node_modules` folder of real packages (installed with
 *   `npm install` into the copy, or generated when npm cannot), in this
 *   process: median and max over the runs;
 * - the same through the CLI (`rienda tools test grep`), start-up included;
 * - {@link READ_EDIT_SCENARIO}: a run that reads, edits and re-reads a file
 *   in three tool turns (measured by `scripts/bench.ts`).
 *
 * `deno run -A scripts/bench_coding_tools.ts` runs the in-process part alone.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { createFindTool } from "../src/tools/find.ts";
import { NO_APPROVAL } from "../src/tools/approval.ts";
import { createGrepTool } from "../src/tools/grep.ts";
import type { Tool } from "../src/tools/tool.ts";
import type { Turn } from "../tests/harness/fake_provider.ts";
import type { TestEnv } from "../tests/harness/env.ts";
import { CHECKOUT_DIR } from "../tests/harness/rienda.ts";

const RUNS = Number(Deno.env.get("BENCH_TOOL_RUNS") ?? "20");

/** Packages installed into the copy's `node_modules` (about 1,200 files, 40 MiB). */
const PACKAGES = ["typescript@5.9.2", "lodash@4.17.21", "esbuild-wasm@0.25.0"];

async function output(command: string, args: string[], cwd: string): Promise<string | null> {
  try {
    const result = await new Deno.Command(command, { args, cwd, stdout: "piped", stderr: "null" })
      .output();
    return result.success ? new TextDecoder().decode(result.stdout) : null;
  } catch {
    return null;
  }
}

/** A temp copy of the repository's tracked files with a `node_modules`; says how it was made. */
export async function repositoryCopy(): Promise<{ dir: string; nodeModules: string }> {
  const dir = await Deno.makeTempDir({ prefix: "rienda-bench-repo-" });
  const tracked = (await output("git", ["ls-files"], CHECKOUT_DIR))?.split("\n") ?? [];
  for (const file of tracked.filter((line) => line !== "")) {
    await Deno.mkdir(dirname(join(dir, file)), { recursive: true });
    await Deno.copyFile(join(CHECKOUT_DIR, file), join(dir, file)).catch(() => undefined);
  }
  const npm = await output("npm", ["install", "--no-save", "--silent", ...PACKAGES], dir);
  if (npm !== null) return { dir, nodeModules: `npm install ${PACKAGES.join(" ")}` };
  // No npm or no registry: 1,200 generated files stand in for the packages.
  for (let index = 0; index < 1200; index++) {
    const file = join(dir, "node_modules", `pkg${index % 40}`, `file${index}.js`);
    await Deno.mkdir(dirname(file), { recursive: true });
    await Deno.writeTextFile(file, "export const walkTree = 1;\n".repeat(1000));
  }
  return { dir, nodeModules: "1,200 generated files (npm was not available)" };
}

function quantiles(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? NaN;
  const max = sorted.at(-1) ?? NaN;
  return `median ${median.toFixed(1)} ms, max ${max.toFixed(1)} ms`;
}

async function timeTool(tool: Tool, args: Record<string, unknown>, workdir: string) {
  const samples: number[] = [];
  let text = "";
  for (let run = 0; run <= RUNS; run++) {
    const started = performance.now();
    const result = await tool.execute(args, {
      callId: "bench",
      workdir,
      signal: new AbortController().signal,
      output: () => {},
    });
    if (run > 0) samples.push(performance.now() - started);
    if (result.isError) throw new Error(`${tool.name} failed: ${result.text}`);
    text = result.text;
  }
  return { timing: quantiles(samples), lines: text.split("\n").length };
}

/** The in-process measures, one line each, and the CLI one. */
export async function measureCodingTools(): Promise<string[]> {
  const { dir, nodeModules } = await repositoryCopy();
  try {
    const grepTool = createGrepTool(NO_APPROVAL);
    const grep = await timeTool(grepTool, { pattern: "walkTree|MAX_[A-Z_]+" }, dir);
    const grepTs = await timeTool(grepTool, { pattern: "export", glob: "*.ts" }, dir);
    const find = await timeTool(createFindTool(), { pattern: "**/*.ts" }, dir);
    const cli = await timeCli(dir);
    return [
      `repository copy with node_modules from ${nodeModules}`,
      `grep "walkTree|MAX_[A-Z_]+" (${grep.lines} lines)`.padEnd(44) + grep.timing,
      `grep "export" --glob *.ts (${grepTs.lines} lines)`.padEnd(44) + grepTs.timing,
      `find "**/*.ts" (${find.lines} lines)`.padEnd(44) + find.timing,
      "rienda tools test grep (CLI, start-up incl.)".padEnd(44) + cli,
    ];
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function timeCli(dir: string): Promise<string> {
  const home = await Deno.makeTempDir({ prefix: "rienda-bench-home-" });
  const samples: number[] = [];
  try {
    for (let run = 0; run <= Math.min(RUNS, 10); run++) {
      const started = performance.now();
      const result = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-q",
          "--config",
          `${CHECKOUT_DIR}/deno.json`,
          "-P=rienda",
          "--no-prompt",
          `${CHECKOUT_DIR}/src/main.ts`,
          "tools",
          "test",
          "grep",
          "--args",
          '{"pattern":"walkTree"}',
        ],
        cwd: dir,
        env: { RIENDA_HOME: home },
        stdout: "null",
        stderr: "null",
      }).output();
      if (!result.success) throw new Error("rienda tools test grep failed");
      if (run > 0) samples.push(performance.now() - started);
    }
  } finally {
    await Deno.remove(home, { recursive: true });
  }
  return quantiles(samples);
}

/** The file the read-edit-read run works on. */
const FILE = "notes.txt";

let flips = 0;

/** Three tool turns: read the file, edit one line (back and forth between runs), read it again. */
function readEditTurns(): Turn[] {
  const [from, to] = flips++ % 2 === 0 ? ["alpha", "beta"] : ["beta", "alpha"];
  return [
    { toolCalls: [{ name: "read", arguments: { path: FILE } }] },
    { toolCalls: [{ name: "edit", arguments: { path: FILE, old_string: from, new_string: to } }] },
    { toolCalls: [{ name: "read", arguments: { path: FILE } }] },
    { text: "done" },
  ];
}

/** The CLI scenario: one run that reads, edits and re-reads a 2,000-line file. */
export const READ_EDIT_SCENARIO = {
  name: "read, edit, re-read (3 tool turns)",
  turns: readEditTurns,
  args: ["run", "-a", "files", "-p", "go"],
  setup: async (env: TestEnv) => {
    const lines = Array.from({ length: 2000 }, (_, index) => `line ${index + 1}`);
    lines[1000] = "alpha";
    await env.writeFile(`workspace/${FILE}`, `${lines.join("\n")}\n`);
    await env.writeAgent("files", { description: "Edits.", tools: ["read", "edit"] });
  },
} as const;

if (import.meta.main) {
  for (const line of await measureCodingTools()) {
    Deno.stdout.writeSync(new TextEncoder().encode(`${line}\n`));
  }
}
