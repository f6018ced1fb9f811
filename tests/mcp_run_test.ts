import assert from "node:assert/strict";
import { createTestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { at, parseJsonLines } from "./harness/json.ts";
import {
  configWithMcp,
  everythingStdio,
  filesystemStdio,
  startHttpEverything,
  startRecordingProxy,
} from "./harness/mcp_servers.ts";
import { toolNamesOf, toolResultsOf } from "./harness/wire.ts";

const ECHO = { name: "everything__echo", arguments: { message: "hello from the model" } };

Deno.test("a run lists the tools of a stdio server and calls one", async () => {
  await using provider = await startFakeProvider([{ toolCalls: [ECHO] }, { text: "echoed" }]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(configWithMcp(provider.url, { everything: await everythingStdio() }));
  await env.writeAgent("mcp", { description: "Uses MCP.", tools: ["shell", "mcp:everything"] });
  const result = await env.run(["run", "-a", "mcp", "--output", "stream-json", "go"]);
  assert.equal(result.code, 0, result.stderr);
  const [first, second] = provider.requests;
  const names = toolNamesOf(first);
  assert.equal(names[0], "shell");
  assert.ok(names.includes("everything__echo"), names.join(", "));
  assert.ok(names.includes("everything__get-sum"), names.join(", "));
  assert.ok(names.every((name) => /^[A-Za-z0-9_-]{1,64}$/.test(name)), names.join(", "));
  const echo = (at(first?.body, "tools") as unknown[]).find((tool) =>
    at(tool, "function", "name") === "everything__echo"
  );
  assert.equal(at(echo, "function", "parameters", "properties", "message", "type"), "string");
  assert.equal(at(echo, "function", "parameters", "$schema"), undefined);
  assert.deepEqual(toolResultsOf(second), [{
    id: "call_1",
    content: "Echo: hello from the model",
  }]);
  const events = parseJsonLines(result.stdout, "stdout");
  const call = events.find((event) => event.type === "tool_call");
  assert.equal(at(call, "name"), "everything__echo");
  const done = events.find((event) => event.type === "tool_result");
  assert.deepEqual([at(done, "text"), at(done, "isError")], ["Echo: hello from the model", false]);
});

Deno.test("images are summarised, invalid arguments never reach the server, isError is kept", async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [
        { name: "everything__get-tiny-image", arguments: {} },
        { name: "everything__echo", arguments: { message: 42 } },
        { name: "everything__get-annotated-message", arguments: { messageType: "nope" } },
      ],
    },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(configWithMcp(provider.url, { everything: await everythingStdio() }));
  await env.writeAgent("mcp", { description: "Uses MCP.", tools: ["mcp:everything"] });
  const result = await env.run(["run", "-a", "mcp", "--output", "stream-json", "go"]);
  assert.equal(result.code, 0, result.stderr);
  const results = parseJsonLines(result.stdout, "stdout").filter((e) => e.type === "tool_result");
  assert.match(String(at(results[0], "text")), /\[image: image\/png, \d+ bytes\]/);
  assert.equal(at(results[0], "isError"), false);
  assert.match(
    String(at(results[1], "text")),
    /^the tool was not executed: "message" must be string/,
  );
  assert.equal(at(results[1], "isError"), true);
  assert.match(String(at(results[2], "text")), /must be one of/);
  assert.equal(at(results[2], "isError"), true);
});

Deno.test("one tool by name, Claude Code's mcp__ names, and a filesystem server scoped to a folder", async () => {
  await using provider = await startFakeProvider([
    {
      toolCalls: [
        { name: "fs__read_text_file", arguments: { path: "notes/todo.txt" } },
        { name: "fs__read_text_file", arguments: { path: "/etc/hostname" } },
        { name: "fs__list_directory", arguments: { path: "notes" } },
      ],
    },
    { text: "read" },
  ]);
  await using env = await createTestEnv({ provider });
  const scoped = await env.makeDir("workspace/notes");
  await Deno.writeTextFile(`${scoped}/todo.txt`, "buy milk\n");
  await env.writeConfig(configWithMcp(provider.url, { fs: await filesystemStdio(env.workdir) }));
  await env.writeAgent("files", {
    description: "Reads files through MCP.",
    tools: ["mcp:fs/read_text_file", "mcp__fs__list_directory"],
  });
  const result = await env.run(["run", "-a", "files", "--output", "stream-json", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(toolNamesOf(provider.requests[0]), ["fs__read_text_file", "fs__list_directory"]);
  const results = parseJsonLines(result.stdout, "stdout").filter((e) => e.type === "tool_result");
  assert.deepEqual([at(results[0], "text"), at(results[0], "isError")], ["buy milk\n", false]);
  assert.match(String(at(results[1], "text")), /outside allowed directories/i);
  assert.equal(at(results[1], "isError"), true);
  assert.match(String(at(results[2], "text")), /\[FILE\] todo\.txt/);
});

Deno.test("streamable HTTP on 127.0.0.1, and the SSE transport as a fallback", async () => {
  await using http = await startHttpEverything("streamableHttp");
  await using sse = await startHttpEverything("sse");
  await using provider = await startFakeProvider([
    {
      toolCalls: [
        { name: "http__echo", arguments: { message: "over http" } },
        { name: "sse__echo", arguments: { message: "over sse" } },
      ],
    },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(configWithMcp(provider.url, {
    http: { url: http.url },
    sse: { url: sse.url },
  }));
  await env.writeAgent("remote", {
    description: "Uses remote MCP.",
    tools: ["mcp:http/echo", "mcp:sse/echo"],
  });
  const result = await env.run(["run", "-a", "remote", "go"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(toolResultsOf(provider.requests[1]), [
    { id: "call_1", content: "Echo: over http" },
    { id: "call_2", content: "Echo: over sse" },
  ]);
});

Deno.test("a bearer token from token_env is sent and never printed", async () => {
  await using http = await startHttpEverything("streamableHttp");
  await using proxy = startRecordingProxy(http.url);
  const token = "mcp-secret-token-1234";
  await using provider = await startFakeProvider([
    // The model repeats the token: the server's echo of it is redacted all the same.
    { toolCalls: [{ name: "http__echo", arguments: { message: `the token is ${token}` } }] },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(configWithMcp(provider.url, {
    http: { url: proxy.url, token_env: "MCP_TOKEN" },
  }));
  await env.writeAgent("remote", { description: "Uses remote MCP.", tools: ["mcp:http"] });
  const result = await env.run(["run", "-a", "remote", "--output", "stream-json", "go"], {
    env: { MCP_TOKEN: token },
  });
  assert.equal(result.code, 0, result.stderr);
  assert.ok(proxy.authorizations.length > 0);
  assert.ok(proxy.authorizations.every((value) => value === `Bearer ${token}`));
  assert.ok(!result.stderr.includes(token) && !result.stdout.includes(token), result.stdout);
  const events = parseJsonLines(result.stdout, "stdout");
  const done = events.find((event) => event.type === "tool_result");
  assert.equal(at(done, "text"), "Echo: the token is mcp…1234");
  assert.deepEqual(toolResultsOf(provider.requests[1]), [
    { id: "call_1", content: "Echo: the token is mcp…1234" },
  ]);
  provider.push({ text: "no tools" });
  const missing = await env.run(["run", "-a", "remote", "go"]);
  assert.equal(missing.code, 0, missing.stderr);
  assert.match(missing.stderr, /mcp server "http": token_env MCP_TOKEN is not set/);
});

Deno.test("a stdio server gets a minimal environment: env and env_vars, never provider keys", async () => {
  await using provider = await startFakeProvider([
    { toolCalls: [{ name: "everything__get-env", arguments: {} }] },
    { text: "done" },
  ]);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(configWithMcp(provider.url, {
    everything: await everythingStdio({
      extra: {
        env: { SET_BY_CONFIG: "yes", SERVICE_TOKEN: "s3cr3t-value" },
        env_vars: ["PASSED_THROUGH"],
      },
    }),
  }));
  await env.writeAgent("mcp", { description: "Uses MCP.", tools: ["mcp:everything/get-env"] });
  const result = await env.run(["run", "-a", "mcp", "go"], {
    env: { OPENAI_API_KEY: "sk-never-passed", PASSED_THROUGH: "through" },
  });
  assert.equal(result.code, 0, result.stderr);
  const seen: unknown = JSON.parse(String(toolResultsOf(provider.requests[1])[0]?.content));
  assert.equal(at(seen, "SET_BY_CONFIG"), "yes");
  assert.equal(at(seen, "PASSED_THROUGH"), "through");
  // The server saw the value, but a secret-named variable never reaches the model or the screen.
  assert.equal(at(seen, "SERVICE_TOKEN"), "[redacted]");
  assert.equal(at(seen, "OPENAI_API_KEY"), undefined);
  assert.equal(at(seen, "RIENDA_HOME"), undefined);
  assert.equal(typeof at(seen, "PATH"), "string");
});
