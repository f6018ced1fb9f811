/**
 * The client scenarios of the MCP conformance suite (`@modelcontextprotocol/conformance`)
 * that apply to a tools-only client, run against the real CLI: the suite
 * starts its scenario server and runs a client command with the server's URL,
 * which here writes `mcp_servers:` and runs `rienda mcp`.
 *
 * Not run, because rienda does not implement what they test (docs/mcp.md):
 * `elicitation-sep1034-client-defaults` (elicitation) and every `auth/*`
 * scenario (OAuth).
 */
import assert from "node:assert/strict";
import { packageDir } from "../scripts/mcp_servers.ts";
import { createTestEnv } from "./harness/env.ts";
import { everythingEntry } from "./harness/mcp_servers.ts";

/** The scenarios and the command each runs against the scenario's server. */
const CLIENT_SCRIPT = `#!/bin/sh
printf 'mcp_servers:\\n  conformance:\\n    url: "%s"\\n' "$1" > "$RIENDA_HOME/config.yaml"
case "$MCP_CONFORMANCE_SCENARIO" in
  tools_call) exec rienda mcp call conformance add_numbers --args '{"a": 2, "b": 3}' ;;
  sse-retry) exec rienda mcp call conformance test_reconnection ;;
  *) exec rienda mcp list --check ;;
esac
`;

for (const scenario of ["initialize", "tools_call", "sse-retry"]) {
  Deno.test(`the MCP conformance client scenario "${scenario}" passes`, async () => {
    await everythingEntry(); // fails with the fix when the packages are not installed
    await using env = await createTestEnv({ noConfig: true });
    const path = await env.installWrapper();
    const script = await env.writeFile("conformance-client.sh", CLIENT_SCRIPT, 0o755);
    const suite = `${packageDir("@modelcontextprotocol/conformance")}/dist/index.js`;
    // The suite needs Node 22; Deno runs it as it is.
    const result = await env.exec(Deno.execPath(), [
      "run",
      "-A",
      suite,
      "client",
      "--command",
      `sh ${script}`,
      "--scenario",
      scenario,
    ], { env: { PATH: path }, timeoutMs: 60_000 });
    assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
    // The suite reports on stderr.
    assert.match(result.stderr, /OVERALL: PASSED/, result.stderr);
  });
}
