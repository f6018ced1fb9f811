/**
 * The tools a conversation keeps between its turns (the chat, an editor's
 * session), so a turn does not start them again:
 *
 * - MCP servers run until the conversation closes: a stateful server keeps
 *   its state from one message to the next. A server that died, or whose
 *   settings in config.yaml changed, is started again by the next turn that
 *   uses it; one that failed to start is tried again too.
 * - The extension host with the agent's user tools and hooks stays loaded
 *   while the turns run the same agent (its file's tools and hooks) on the
 *   same session with the same model, which `ctx.session` and `ctx.agent`
 *   show; otherwise the next turn loads them anew and the old host is closed.
 *
 * @module
 */

import type { McpServerSettings } from "../config/config.ts";
import type { McpConnection, StartedServers, StartRequest } from "../mcp/mcp_tools.ts";
import type { RunExtensions, RunExtensionsRequest } from "./extensions.ts";

/** What {@link KeptTools.servers} starts a server with: `startMcpServers`. */
export type StartServers = (
  servers: readonly McpServerSettings[],
  request: StartRequest,
) => Promise<StartedServers>;

/** Where a run takes its tools from when they outlive it; dispose it to stop them all. */
export interface KeptTools extends AsyncDisposable {
  /**
   * The agent's user tools and hooks, loaded by `load` unless the kept ones
   * fit `request`; disposing the result leaves them loaded.
   */
  extensions(
    request: RunExtensionsRequest,
    load: (request: RunExtensionsRequest) => Promise<RunExtensions>,
  ): Promise<RunExtensions>;
  /**
   * Connections to `servers`, started with `start` unless a live one with
   * the same settings runs; disposing the result leaves them running.
   */
  servers(
    servers: readonly McpServerSettings[],
    request: StartRequest,
    start: StartServers,
  ): Promise<StartedServers>;
}

/** What decides whether loaded extensions fit a run: the agent's entries, the session, the model. */
function extensionsKey(request: RunExtensionsRequest): string {
  const { agent } = request;
  return JSON.stringify([
    agent.path,
    agent.tools,
    agent.hooks,
    agent.hookEntries,
    request.configHooks ?? [],
    request.sessionHooks ?? [],
    agent.systemPrompt,
    request.sessionId,
    request.modelRef,
    request.workdir,
    request.autoApprove,
  ]);
}

/** Nothing kept yet. */
export function createKeptTools(): KeptTools {
  let loaded: { readonly key: string; readonly extensions: RunExtensions } | null = null;
  const running = new Map<string, { readonly key: string; readonly connection: McpConnection }>();

  return {
    async extensions(request, load) {
      const key = extensionsKey(request);
      if (loaded?.key !== key) {
        const old = loaded;
        loaded = null;
        await old?.extensions[Symbol.asyncDispose]();
        loaded = { key, extensions: await load(request) };
      }
      return { ...loaded.extensions, [Symbol.asyncDispose]: () => Promise.resolve() };
    },
    async servers(servers, request, start) {
      const missing: McpServerSettings[] = [];
      for (const settings of servers) {
        const kept = running.get(settings.name);
        if (kept?.key === JSON.stringify(settings) && kept.connection.alive()) continue;
        running.delete(settings.name);
        await kept?.connection.close();
        missing.push(settings);
      }
      const started = missing.length === 0 ? null : await start(missing, request);
      for (const [name, connection] of started?.connections ?? []) {
        const settings = missing.find((candidate) => candidate.name === name);
        running.set(name, { key: JSON.stringify(settings), connection });
      }
      const connections = new Map<string, McpConnection>();
      for (const { name } of servers) {
        const kept = running.get(name);
        if (kept !== undefined) connections.set(name, kept.connection);
      }
      return {
        connections,
        failures: started?.failures ?? new Map(),
        [Symbol.asyncDispose]: () => Promise.resolve(),
      };
    },
    async [Symbol.asyncDispose]() {
      const old = loaded;
      loaded = null;
      const connections = [...running.values()].map((kept) => kept.connection);
      running.clear();
      await Promise.allSettled([
        old?.extensions[Symbol.asyncDispose](),
        ...connections.map((connection) => connection.close()),
      ]);
    },
  };
}
