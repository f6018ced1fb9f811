import { deepStrictEqual, throws } from "node:assert/strict";
import type { McpServerSettings } from "../config/config.ts";
import { planMcpTools } from "./mcp_plan.ts";

function stdio(name: string, extra: Partial<McpServerSettings> = {}): McpServerSettings {
  return {
    name,
    enabled: true,
    timeoutMs: 1000,
    allow: null,
    deny: [],
    kind: "stdio",
    command: "true",
    args: [],
    env: {},
    envVars: [],
    ...extra,
  } as McpServerSettings;
}

const AGENT = "/h/agents/a.md";

Deno.test("planMcpTools() keeps the order and starts each used server once", () => {
  const servers = { gh: stdio("gh"), fs: stdio("fs"), unused: stdio("unused") };
  const plan = planMcpTools(AGENT, ["shell", "mcp:gh/create_issue", "mcp:fs", "mcp:gh"], servers);
  deepStrictEqual(plan.toolNames, ["shell"]);
  deepStrictEqual(plan.servers.map((server) => server.name), ["gh", "fs"]);
  deepStrictEqual(
    plan.entries.map((entry) =>
      entry.kind === "tool" ? entry.name : `${entry.server.name}/${entry.tool}`
    ),
    [
      "shell",
      "gh/create_issue",
      "fs/null",
      "gh/null",
    ],
  );
  deepStrictEqual(plan.diagnostics, []);
});

Deno.test("planMcpTools() skips a disabled server with a diagnostic", () => {
  const plan = planMcpTools(AGENT, ["mcp:off"], { off: stdio("off", { enabled: false }) });
  deepStrictEqual(plan.servers, []);
  deepStrictEqual(plan.entries, []);
  deepStrictEqual(plan.diagnostics, [
    'mcp server "off": disabled (enabled: false in config.yaml), its tools are not offered',
  ]);
});

Deno.test("planMcpTools() refuses unknown servers and excluded tools", () => {
  throws(() => planMcpTools(AGENT, ["mcp:nope"], { gh: stdio("gh") }), {
    message:
      `${AGENT}: tools: mcp:nope: no MCP server "nope" in mcp_servers of config.yaml (configured: gh)`,
  });
  throws(() => planMcpTools(AGENT, ["mcp:toString"], {}), /no MCP server "toString"/);
  const servers = {
    gh: stdio("gh", { deny: ["delete_repo"] }),
    ro: stdio("ro", { allow: ["read"] }),
  };
  throws(
    () => planMcpTools(AGENT, ["mcp:gh/delete_repo"], servers),
    /excluded by mcp_servers\.gh\.tools/,
  );
  throws(
    () => planMcpTools(AGENT, ["mcp:ro/write"], servers),
    /excluded by mcp_servers\.ro\.tools/,
  );
});
