/**
 * Smoke test of an installed rienda command (a release binary, the npm
 * package's `rienda`, what install.sh put in place), from a folder with no
 * checkout, against the fake provider on 127.0.0.1:
 *
 * - `--version` names the version, a commit and, for a build, its date;
 * - `tools test` of a user tool (QuickJS inside that build);
 * - a one-shot `run` answered by the fake provider;
 * - `mcp call` of a stdio MCP server the command starts (server-everything,
 *   `deno task mcp-servers`).
 *
 * `deno run -A scripts/smoke.ts COMMAND [--source]` (`--source`: the command
 * runs a checkout, so its version names no date); exits 1 naming the first
 * check that failed. `tests/distribution_test.ts` and the release workflow run it.
 *
 * @module
 */

import { resolve } from "node:path";
import { VERSION } from "../src/base/version.ts";
import { createTestEnv, type TestEnv } from "../tests/harness/env.ts";
import { startFakeProvider } from "../tests/harness/fake_provider.ts";
import { configWithMcp, everythingStdio } from "../tests/harness/mcp_servers.ts";

const TOOL = `module.exports = {
  description: "Counts the words of a text.",
  parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  execute: function (ctx, args) { return String(args.text.split(/\\s+/).length) + " words"; },
};`;

/** One check of the smoke test: its name and what went wrong, or null. */
interface Check {
  readonly name: string;
  readonly run: (env: TestEnv, command: string) => Promise<string | null>;
}

function unexpected(result: { code: number; stdout: string; stderr: string }, want: string) {
  return `exit ${result.code}, stdout ${
    JSON.stringify(result.stdout)
  } (want ${want}), stderr:\n${result.stderr}`;
}

/** The version line a build or a checkout prints. */
export function versionPattern(source: boolean): RegExp {
  const version = VERSION.replaceAll(".", "\\.");
  return source
    ? new RegExp(`^rienda ${version} \\([0-9a-f]{7}\\)\\n$`)
    : new RegExp(`^rienda ${version} \\([0-9a-f]{7}, \\d{4}-\\d{2}-\\d{2}\\)\\n$`);
}

function checks(source: boolean): Check[] {
  return [
    {
      name: "--version",
      run: async (env, command) => {
        const result = await env.exec(command, ["--version"]);
        const pattern = versionPattern(source);
        return result.code === 0 && pattern.test(result.stdout)
          ? null
          : unexpected(result, String(pattern));
      },
    },
    {
      name: "tools test of a user tool",
      run: async (env, command) => {
        await env.writeTool("word-count", TOOL);
        const result = await env.exec(command, [
          "tools",
          "test",
          "word-count",
          "--args",
          '{"text": "one two three"}',
        ]);
        return result.code === 0 && result.stdout === "3 words\n"
          ? null
          : unexpected(result, '"3 words\\n"');
      },
    },
    {
      name: "a one-shot run against the fake provider",
      run: async (env, command) => {
        const result = await env.exec(command, ["run", "--no-session", "-p", "hi"]);
        return result.code === 0 && result.stdout === "hello from the smoke test\n"
          ? null
          : unexpected(result, '"hello from the smoke test\\n"');
      },
    },
    {
      name: "mcp call of a stdio server",
      run: async (env, command) => {
        await env.writeConfig(configWithMcp("http://127.0.0.1:1/v1", {
          everything: await everythingStdio(),
        }));
        const result = await env.exec(command, [
          "mcp",
          "call",
          "everything",
          "get-sum",
          "--args",
          '{"a": 2, "b": 40}',
        ]);
        return result.code === 0 && result.stdout === "The sum of 2 and 40 is 42.\n"
          ? null
          : unexpected(result, '"The sum of 2 and 40 is 42.\\n"');
      },
    },
  ];
}

/** Runs every check against `command`; the failures, as lines (empty when all passed). */
export async function smoke(command: string, options: { source: boolean }): Promise<string[]> {
  await using provider = await startFakeProvider([{ text: "hello from the smoke test" }]);
  await using env = await createTestEnv({ provider });
  const failures: string[] = [];
  for (const check of checks(options.source)) {
    const failure = await check.run(env, command);
    if (failure !== null) failures.push(`${check.name}: ${failure}`);
  }
  return failures;
}

if (import.meta.main) {
  const [command, ...flags] = Deno.args;
  if (command === undefined || flags.some((flag) => flag !== "--source")) {
    throw new Error("usage: deno run -A scripts/smoke.ts COMMAND [--source]");
  }
  // Absolute: the checks run it from a folder with no checkout.
  const failures = await smoke(resolve(command), { source: flags.includes("--source") });
  const report = failures.length === 0 ? `smoke: ${command}: all checks passed\n` : failures
    .map((failure) => `smoke: ${command}: ${failure}\n`).join("");
  Deno.stderr.writeSync(new TextEncoder().encode(report));
  Deno.exit(failures.length === 0 ? 0 : 1);
}
