/**
 * `rienda tools`: the built-in and user tools with their descriptions, the
 * tools of the enabled MCP servers (started for the listing) under the names
 * the model sees, and the diagnostics of broken ones; `rienda tools test NAME --args JSON`: one
 * invocation outside any model call (docs/cli.md).
 *
 * ```
 * http        built-in  Sends one HTTP request and returns the response.
 * shell       user      Runs a command (replaces the built-in).
 *   capabilities: file read: none; file write: none; http: none; exec: any command; env: none
 * word-count  user      Counts the words of a file in the workspace.
 *   capabilities: full access
 * fs__read_text_file  mcp:fs  Read the complete contents of a file as text.
 * ```
 *
 * @module
 */

import { checkedTool } from "../app/checked_tool.ts";
import { loadHomeExtensions, openExtensionWorkbench } from "../app/extension_workbench.ts";
import { checkMcpServers } from "../app/mcp_check.ts";
import { loadConfig } from "../config/config.ts";
import { resolvePaths } from "../config/paths.ts";
import { describeSandbox } from "../sandbox/sandbox_setting.ts";
import { loadToolByName } from "../extensions/load_extensions.ts";
import { errorResult } from "../tools/tool.ts";
import type { Io } from "../ui/io.ts";
import { formatColumns, summary } from "./columns.ts";
import { EXIT } from "./exit.ts";
import {
  capabilitiesLine,
  checkOneStdinFlag,
  expectDiff,
  readJsonFlag,
  workbenchCallbacks,
} from "./extension_output.ts";

const COMMAND = "tools test";

/** The call id a `tools test` invocation runs under. */
const TEST_CALL_ID = "call_test";

/** The flags of `rienda tools test`. */
export interface ToolsTestFlags {
  /** `--args JSON|@FILE|-`; `{}` when absent. */
  readonly args: string | undefined;
  /** `--agent ID`. */
  readonly agent: string | undefined;
  /** `--expect JSON|@FILE|-`: the text (a string) or `{ text, isError }` the result must be. */
  readonly expect: string | undefined;
  /** `-C DIR`. */
  readonly workdir: string | undefined;
  /** `--config PATH`. */
  readonly config: string | undefined;
  /** `-y`. */
  readonly autoApprove: boolean;
}

/** `rienda tools`: one line per tool, sorted by name; diagnostics on stderr (exit 1 if broken). */
export async function toolsList(io: Io, signal: AbortSignal): Promise<number> {
  const { catalog, builtins, policy } = await loadHomeExtensions(
    { env: io.env, cwd: io.cwd, signal },
    "tool",
  );
  const user = new Map(catalog.tools.map((tool) => [tool.name, tool]));
  const mcp = await mcpTools(io, signal);
  const rows = [
    ...builtins.filter((tool) => !user.has(tool.name)).map((tool) => ({
      ...tool,
      origin: "built-in",
    })),
    ...catalog.tools.map((tool) => ({ ...tool, origin: "user" })),
    ...mcp.rows,
  ].sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const lines = formatColumns(rows.map((row) => [row.name, row.origin, summary(row.description)]));
  const sandbox = await sandboxLine(io);
  lines.split("\n").slice(0, -1).forEach((line, index) => {
    const row = rows[index];
    const user = row?.origin === "user"
      ? catalog.tools.find((tool) => tool.name === row.name)
      : null;
    const confined = row?.name === "shell" && row.origin === "built-in" ? sandbox : "";
    io.stdout.write(`${line}\n${user ? capabilitiesLine(user, policy) : confined}`);
  });
  for (const diagnostic of [...catalog.diagnostics, ...mcp.problems]) {
    io.stderr.write(`${diagnostic}\n`);
  }
  // Like `rienda agents`: a broken tool or server fails the listing, so scripts notice.
  return catalog.problems.length + mcp.problems.length > 0 ? EXIT.failure : EXIT.ok;
}

/** The line under `shell` when config.yaml confines commands (docs/sandbox.md); empty with `off`. */
async function sandboxLine(io: Io): Promise<string> {
  const paths = resolvePaths(io.env, { cwd: io.cwd });
  const { sandbox } = await loadConfig(paths.configFile, { explicit: paths.configExplicit });
  if (sandbox === undefined || sandbox.mode === "off") return "";
  return `  sandbox: ${
    describeSandbox(sandbox)
  } (config.yaml; an agent's sandbox: or --sandbox wins)\n`;
}

/** The tools of the enabled MCP servers, started for the listing, and the servers that failed. */
async function mcpTools(io: Io, signal: AbortSignal) {
  const paths = resolvePaths(io.env, { cwd: io.cwd });
  const config = await loadConfig(paths.configFile, { explicit: paths.configExplicit });
  const enabled = Object.values(config.mcpServers).filter((server) => server.enabled);
  const checks = await checkMcpServers(enabled, {
    workdir: io.cwd,
    env: io.env,
    secrets: io.secrets,
    signal,
  });
  return {
    rows: checks.flatMap((check) =>
      check.ok
        ? check.tools.map((tool) => ({
          name: tool.modelName,
          origin: `mcp:${check.settings.name}`,
          description: tool.description,
        }))
        : []
    ),
    problems: checks.flatMap((check) => check.ok ? [] : [check.message]),
  };
}

/**
 * `rienda tools test NAME`: validates the arguments, runs the tool once and
 * prints the result text on stdout (exit 0), or an error result's text (exit 1).
 * With `--expect`, the exit status says whether the result was the expected
 * one (a diff on stderr when not).
 */
export async function toolsTest(
  io: Io,
  signal: AbortSignal,
  name: string,
  flags: ToolsTestFlags,
): Promise<number> {
  checkOneStdinFlag({ "--args": flags.args, "--expect": flags.expect }, COMMAND);
  const args = await readJsonFlag(io, "--args", flags.args, COMMAND);
  const expected = flags.expect === undefined
    ? undefined
    : await readJsonFlag(io, "--expect", flags.expect, COMMAND);
  using workbench = await openExtensionWorkbench({
    env: io.env,
    cwd: io.cwd,
    secrets: io.secrets,
    config: flags.config,
    workdir: flags.workdir,
    autoApprove: flags.autoApprove,
    agent: flags.agent,
    signal,
    ...workbenchCallbacks(io),
  });
  const tool = await loadToolByName({
    ...workbench.dirs,
    name,
    builtins: workbench.builtins,
    context: workbench.context,
  });
  let atLineStart = true;
  const callable = checkedTool(tool, { timeoutMs: workbench.agent?.toolTimeouts?.get(name) });
  const checked = await callable.check(args);
  const result = !checked.ok ? errorResult(checked.message) : await callable.run(checked.args, {
    callId: TEST_CALL_ID,
    workdir: workbench.workdir,
    signal,
    output: (text) => {
      io.stderr.write(text);
      if (text !== "") atLineStart = text.endsWith("\n");
    },
  });
  if (!atLineStart) io.stderr.write("\n");
  if (signal.aborted) {
    io.stderr.write("rienda: the tool was interrupted\n");
    return EXIT.interrupted;
  }
  const { text } = result;
  io.stdout.write(text === "" || text.endsWith("\n") ? text : `${text}\n`);
  if (expected === undefined) return result.isError ? EXIT.failure : EXIT.ok;
  const diff = expectDiff(
    expected,
    typeof expected === "string" ? text : { text, isError: result.isError },
  );
  if (diff === null) return EXIT.ok;
  io.stderr.write(`rienda: the result differs from --expect:\n${diff}`);
  return EXIT.failure;
}
