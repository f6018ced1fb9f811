import assert from "node:assert/strict";
import { join } from "node:path";
import type { AgentDefinition } from "../agents/agent_file.ts";
import { NO_HOOKS } from "../engine/hooks.ts";
import {
  createExtensionContext,
  loadRunExtensions,
  type RunExtensionsRequest,
} from "./extensions.ts";
import { SecretSet } from "../secrets/secrets.ts";

const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "rienda-app-ext-" }));
const paths = {
  home: root,
  toolsDir: join(root, "tools"),
  hooksDir: join(root, "hooks"),
  cacheDir: join(root, "cache"),
  storeDir: join(root, "store"),
  exportsCacheDir: join(root, "exports-cache"),
  credentialsFile: join(root, "credentials.json"),
  configFile: join(root, "config.yaml"),
  sessionsDir: join(root, "sessions"),
};

function agent(tools: string[], hooks: string[] = []): AgentDefinition {
  return {
    id: "coder",
    path: join(root, "agents", "coder.md"),
    description: "Codes.",
    tools,
    hooks,
    hookEntries: hooks.map((name, index) => ({ kind: "script", name, index, priority: 0 })),
    lines: new Map(),
    peerMcpTools: new Set(),
    warnings: [],
    notes: [],
    config: {},
    systemPrompt: "You code.",
    frontmatter: { description: "Codes.", tools, hooks },
  };
}

function request(definition: AgentDefinition): RunExtensionsRequest {
  return {
    paths,
    agent: definition,
    config: {},
    workdir: root,
    sessionId: "01session",
    modelRef: "fake/m",
    autoApprove: false,
    secrets: new SecretSet(),
    notice: () => {},
    signal: new AbortController().signal,
  };
}

Deno.test("loadRunExtensions() gives built-ins without a host when nothing user-written is declared", async () => {
  await using loaded = await loadRunExtensions(request(agent(["shell", "http"])));
  assert.deepEqual(loaded.tools.map((tool) => tool.name), ["shell", "http"]);
  assert.equal(loaded.hooks, NO_HOOKS);
  assert.deepEqual(loaded.diagnostics, []);
});

Deno.test("loadRunExtensions() loads a user tool that replaces a built-in, and fails on unknown names", async () => {
  await Deno.mkdir(join(paths.toolsDir, "shell"), { recursive: true });
  await Deno.writeTextFile(
    join(paths.toolsDir, "shell", "index.js"),
    `module.exports = { description: "Mine.", parameters: { type: "object" }, execute: function () { return "mine"; } };`,
  );
  try {
    await using loaded = await loadRunExtensions(request(agent(["shell", "http"])));
    assert.deepEqual(loaded.tools.map((tool) => tool.description.split("\n")[0]), [
      "Mine.",
      "Sends one HTTP request and returns the response.",
    ]);
    assert.deepEqual(loaded.diagnostics, [
      'tool "shell": replaces the built-in tool of the same name',
    ]);
    const result = await loaded.tools[0]?.execute({}, {
      callId: "c",
      workdir: root,
      signal: new AbortController().signal,
      output: () => {},
    });
    assert.deepEqual(result, { text: "mine", isError: false });
  } finally {
    await Deno.remove(join(paths.toolsDir, "shell"), { recursive: true });
  }
  await assert.rejects(
    loadRunExtensions(request(agent(["grepp"]))),
    (error: unknown) => {
      assert.ok(error instanceof Error);
      assert.equal(
        error.message,
        `${
          join(root, "agents", "coder.md")
        }: tools: unknown tool "grepp" (available: agent, edit, find, grep, http, ls, read, shell, write)`,
      );
      return true;
    },
  );
  await assert.rejects(
    loadRunExtensions(request(agent([], ["guard"]))),
    /hooks: unknown hook "guard" \(available: none\)$/,
  );
});

Deno.test("createExtensionContext() maps the run onto ctx and keeps notify only when given", () => {
  const context = createExtensionContext({ ...request(agent(["shell"])), agent: agent(["shell"]) });
  assert.deepEqual(context.session, { id: "01session", agentId: "coder", modelId: "fake/m" });
  assert.deepEqual(context.agent, {
    name: "coder",
    frontmatter: { description: "Codes.", tools: ["shell"], hooks: [] },
    systemPrompt: "You code.",
  });
  assert.equal(context.cacheDir, paths.cacheDir);
  assert.equal("notify" in context, false);
  assert.equal("confirm" in context, false, "no person to ask in a run");
  const notified: string[] = [];
  const withNotify = createExtensionContext({
    ...request(agent([])),
    notify: (notice) => notified.push(notice.body),
  });
  withNotify.notify?.({ title: "t", body: "b" });
  assert.deepEqual(notified, ["b"]);
});
