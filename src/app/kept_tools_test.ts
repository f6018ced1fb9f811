import assert from "node:assert/strict";
import { parseAgentFile } from "../agents/agent_file.ts";
import { parseConfig } from "../config/config.ts";
import { resolvePaths } from "../config/paths.ts";
import { NO_HOOKS } from "../engine/hooks.ts";
import type { McpConnection, StartedServers } from "../mcp/mcp_tools.ts";
import type { RunExtensions, RunExtensionsRequest } from "./extensions.ts";
import { SecretSet } from "../secrets/secrets.ts";
import { createKeptTools, type StartServers } from "./kept_tools.ts";

const config = parseConfig(
  "mcp_servers:\n  a: { command: node, args: [a.js] }\n  b: { command: node, args: [b.js] }\n",
  "/h/config.yaml",
);
const [a, b] = [config.mcpServers["a"]!, config.mcpServers["b"]!];

/** A starter that counts starts and whose connections die or close on demand. */
function fakeStarter() {
  const started: string[] = [];
  const connections = new Map<string, { alive: boolean; closed: number }>();
  const start: StartServers = (servers) => {
    const map = new Map<string, McpConnection>();
    for (const { name } of servers) {
      started.push(name);
      const state = { alive: true, closed: 0 };
      connections.set(name, state);
      map.set(name, {
        name,
        tools: [],
        transport: "stdio",
        call: () => Promise.reject(new Error("not called")),
        alive: () => state.alive,
        close: () => {
          state.alive = false;
          state.closed++;
          return Promise.resolve();
        },
      });
    }
    const result: StartedServers = {
      connections: map,
      failures: new Map(),
      [Symbol.asyncDispose]: () => Promise.reject(new Error("the pool closes connections itself")),
    };
    return Promise.resolve(result);
  };
  return { start, started, connections };
}

const startRequest = {
  workdir: "/w",
  env: () => undefined,
  secrets: new SecretSet(),
  signal: new AbortController().signal,
};

Deno.test("KeptTools.servers() starts a server once, again when it died or its settings changed, and stops all on dispose", async () => {
  const fake = fakeStarter();
  const kept = createKeptTools();
  const first = await kept.servers([a], startRequest, fake.start);
  await first[Symbol.asyncDispose](); // a run's end leaves it running
  await kept.servers([a, b], startRequest, fake.start);
  assert.deepEqual(fake.started, ["a", "b"]);
  const view = await kept.servers([b], startRequest, fake.start);
  assert.deepEqual([...view.connections.keys()], ["b"]);
  fake.connections.get("a")!.alive = false;
  await kept.servers([a], startRequest, fake.start);
  assert.deepEqual(fake.started, ["a", "b", "a"]);
  const changed = parseConfig("mcp_servers:\n  b: { command: node, args: [b2.js] }\n", "/h/c.yaml");
  await kept.servers([changed.mcpServers["b"]!], startRequest, fake.start);
  assert.deepEqual(fake.started, ["a", "b", "a", "b"]);
  assert.equal(fake.connections.get("b")!.alive, true);
  await kept[Symbol.asyncDispose]();
  assert.equal(fake.connections.get("a")!.closed, 1);
  assert.equal(fake.connections.get("b")!.closed, 1);
});

const paths = resolvePaths((name) => (name === "RIENDA_HOME" ? "/h" : undefined), {});

function extensionsRequest(
  sessionId: string,
  frontmatter = "tools: [read]\n",
): RunExtensionsRequest {
  return {
    agent: parseAgentFile(`---\ndescription: d\n${frontmatter}---\nBody.\n`, "/a/x.md", "x"),
    paths,
    workdir: "/w",
    sessionId,
    modelRef: "fake/m",
    config: {},
    autoApprove: false,
    secrets: new SecretSet(),
    notice: () => {},
    signal: new AbortController().signal,
  };
}

Deno.test("KeptTools.extensions() keeps the loaded host while agent, session and model stay, and closes it when they change", async () => {
  const closed: string[] = [];
  const loads: string[] = [];
  const load = (request: RunExtensionsRequest): Promise<RunExtensions> => {
    loads.push(request.sessionId);
    return Promise.resolve({
      tools: [],
      hooks: NO_HOOKS,
      diagnostics: [],
      [Symbol.asyncDispose]: () => {
        closed.push(request.sessionId);
        return Promise.resolve();
      },
    });
  };
  const kept = createKeptTools();
  await (await kept.extensions(extensionsRequest("s1"), load))[Symbol.asyncDispose]();
  await kept.extensions(extensionsRequest("s1"), load);
  assert.deepEqual([loads, closed], [["s1"], []]);
  await kept.extensions(extensionsRequest("s1", "tools: [read, ls]\n"), load);
  await kept.extensions(extensionsRequest("s2"), load);
  assert.deepEqual([loads, closed], [["s1", "s1", "s2"], ["s1", "s1"]]);
  await kept[Symbol.asyncDispose]();
  assert.deepEqual(closed, ["s1", "s1", "s2"]);
});
