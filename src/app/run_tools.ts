/**
 * Every tool of a run: built-in and user tools and hooks (`extensions.ts`)
 * and the tools of the MCP servers the agent names (docs/mcp.md).
 *
 * - An agent without `mcp:` entries is exactly `loadRunExtensions`: the MCP
 *   SDK is never loaded.
 * - Otherwise the servers it uses start in parallel with the extensions;
 *   a server that fails is a diagnostic, its named tools error results.
 * - A conversation's turns take them from what it keeps (`kept_tools.ts`).
 * - Tools keep the declared order (`mcp:github` puts all of the server's tools
 *   there); two different tools with one name are an error naming both.
 *
 * @module
 */

import type { McpServerSettings } from "../config/config.ts";
import type { CallableTool, Tool } from "../tools/tool.ts";
import type { AgentDefinition } from "../agents/agent_file.ts";
import type { Approval } from "../tools/approval.ts";
import { checkedTool } from "./checked_tool.ts";
import { permittedTool } from "./permitted_tool.ts";
import { loadMcp } from "./load_mcp.ts";
import { loadRunExtensions, type RunExtensions, type RunExtensionsRequest } from "./extensions.ts";
import { type McpPlan, planMcpTools } from "./mcp_plan.ts";
import type { KeptTools } from "./kept_tools.ts";

/** What {@link loadRunTools} needs on top of the extensions' request. */
export interface RunToolsRequest extends RunExtensionsRequest {
  /** `mcp_servers:` of config.yaml. */
  readonly mcpServers: Readonly<Record<string, McpServerSettings>>;
  /**
   * Servers the front end adds (an editor's): started for the run whatever
   * the agent's `tools:` says, all their tools offered after the agent's.
   */
  readonly extraMcpServers?: readonly McpServerSettings[] | undefined;
  /** rienda's environment (`env_vars`, `token_env` of servers). */
  readonly env: (name: string) => string | undefined;
  /** Tools a conversation keeps between its turns; absent: this run's own, stopped when it ends. */
  readonly kept?: KeptTools | undefined;
}

/**
 * Resolves the agent's tools and hooks and starts its MCP servers.
 *
 * @throws {Error} naming the agent file for an unknown tool, hook or server, or a name collision
 */
export async function loadRunTools(request: RunToolsRequest): Promise<RunExtensions> {
  const { agent } = request;
  // A configured server keeps its name: an added one of the same name is not started.
  const shadowed = (request.extraMcpServers ?? []).filter((server) =>
    Object.hasOwn(request.mcpServers, server.name)
  );
  const extra = (request.extraMcpServers ?? []).filter((server) => !shadowed.includes(server));
  const planned = planMcpTools(
    agent.path,
    [...agent.tools, ...extra.map((server) => `mcp:${server.name}`)],
    { ...request.mcpServers, ...Object.fromEntries(extra.map((server) => [server.name, server])) },
    agent.peerMcpTools,
  );
  const plan = shadowed.length === 0 ? planned : {
    ...planned,
    diagnostics: [
      ...shadowed.map((server) =>
        `MCP server "${server.name}" of the editor is not started: config.yaml has a server of that name`
      ),
      ...planned.diagnostics,
    ],
  };
  const extensionsRequest = { ...request, agent: { ...agent, tools: plan.toolNames } };
  const { kept } = request;
  const loadExtensions = (request: RunExtensionsRequest) =>
    kept === undefined ? loadRunExtensions(request) : kept.extensions(request, loadRunExtensions);
  if (plan.servers.length === 0) {
    const extensions = await loadExtensions(extensionsRequest);
    return { ...extensions, diagnostics: [...plan.diagnostics, ...extensions.diagnostics] };
  }
  // Loaded on demand: the SDK costs a few hundred milliseconds of start-up.
  const mcp = await loadMcp();
  await using failure = new AsyncDisposableStack();
  const startRequest = {
    workdir: request.workdir,
    env: request.env,
    secrets: request.secrets,
    signal: request.signal,
    notice: request.notice,
  };
  const [extensions, started] = await Promise.allSettled([
    loadExtensions(extensionsRequest),
    kept === undefined
      ? mcp.startMcpServers(plan.servers, startRequest)
      : kept.servers(plan.servers, startRequest, mcp.startMcpServers),
  ]);
  if (extensions.status === "fulfilled") failure.use(extensions.value);
  if (started.status === "fulfilled") failure.use(started.value);
  if (extensions.status === "rejected") throw extensions.reason;
  if (started.status === "rejected") throw started.reason;
  const servers = started.value;
  const diagnostics = [...plan.diagnostics, ...servers.failures.values()];
  const tools = assembleTools(agent.path, plan, extensions.value.tools, (server, tool) => {
    const offered = mcp.mcpToolsFor(server, tool, servers);
    diagnostics.push(...offered.diagnostics);
    return offered.tools;
  });
  const owned = failure.move();
  return {
    tools,
    hooks: extensions.value.hooks,
    diagnostics: [...diagnostics, ...extensions.value.diagnostics],
    [Symbol.asyncDispose]: () => owned.disposeAsync(),
  };
}

/** One tool and what it is, to tell a repeated entry from a collision. */
interface Offered {
  readonly tool: Tool;
  readonly origin: string;
}

/**
 * The run's tools in declared order, each once.
 *
 * @throws {Error} when two different tools end up with one name
 */
function assembleTools(
  agentPath: string,
  plan: McpPlan,
  extensionTools: readonly Tool[],
  mcpTools: (server: McpServerSettings, tool: string | null) => readonly Offered[],
): Tool[] {
  const byName = new Map(extensionTools.map((tool) => [tool.name, tool]));
  const chosen = new Map<string, Offered>();
  for (const entry of plan.entries) {
    const offered: readonly Offered[] = entry.kind === "tool"
      ? [byName.get(entry.name)].flatMap((tool) =>
        tool === undefined ? [] : [{ tool, origin: `tool "${entry.name}"` }]
      )
      : mcpTools(entry.server, entry.tool);
    for (const candidate of offered) {
      const name = candidate.tool.name;
      const earlier = chosen.get(name);
      if (earlier === undefined) chosen.set(name, candidate);
      else if (earlier.origin !== candidate.origin) {
        throw new Error(
          `${agentPath}: tools: two tools are named "${name}": ${earlier.origin} and ` +
            `${candidate.origin} (rename the server in config.yaml, or drop one from the agent)`,
        );
      }
    }
  }
  return [...chosen.values()].map((offered) => offered.tool);
}

/**
 * The tools as the run calls them: under the agent's `permission:` rules
 * (asking through `approval`), arguments checked, results capped, and the
 * agent's `timeout_ms` of each.
 */
export function callableTools(
  tools: readonly Tool[],
  agent: Pick<AgentDefinition, "permissions" | "toolTimeouts">,
  approval: Pick<Approval, "autoApprove" | "confirm">,
): CallableTool[] {
  return tools.map((tool) =>
    checkedTool(permittedTool(tool, agent.permissions, approval), {
      timeoutMs: agent.toolTimeouts?.get(tool.name),
    })
  );
}
