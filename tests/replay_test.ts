import assert from "node:assert/strict";
import { lastLine, linesOf, retryLines } from "./harness/assertions.ts";
import type { Protocol } from "./harness/codec.ts";
import { createTestEnv, defaultConfig, type TestEnv } from "./harness/env.ts";
import { startFakeProvider, type Turn } from "./harness/fake_provider.ts";
import { parseJsonLines } from "./harness/json.ts";
import { startPty } from "./harness/pty.ts";

/** A TCP listener that counts every connection made to it: a replay must make none. */
function startNetworkTrap() {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let connections = 0;
  const accepting = (async () => {
    for await (const connection of listener) {
      connections += 1;
      connection.close();
    }
  })();
  return {
    url: `http://127.0.0.1:${listener.addr.port}/v1`,
    get connections() {
      return connections;
    },
    async [Symbol.asyncDispose]() {
      listener.close();
      await accepting.catch(() => {});
    },
  };
}

const TOOL_TURNS: readonly Turn[] = [
  {
    text: "Let me look.",
    toolCalls: [{ name: "shell", arguments: { command: "echo ran >> tool.log; echo from-tool" } }],
  },
  { text: "The tool said from-tool.", thinking: "it printed", usage: { input: 30, output: 7 } },
];

/** Records `turns` on a fake provider, then points config.yaml at a trap with the provider stopped. */
async function recorded(
  env: TestEnv,
  turns: readonly Turn[],
  args: readonly string[] = ["run", "-a", "coder", "go"],
  protocol: Protocol = "openai_chat_completions",
) {
  const trap = startNetworkTrap();
  const cassette = `${env.root}/run.cassette.jsonl`;
  {
    await using provider = await startFakeProvider(turns);
    await env.writeConfig(defaultConfig(provider.url, protocol));
    const live = await env.run([...args, "--record", cassette]);
    await env.writeConfig(defaultConfig(trap.url, protocol));
    return { live, cassette, trap, requests: [...provider.requests] };
  }
}

Deno.test("a recorded run with a tool call replays offline: same stdout, the tool runs again, no connection", async () => {
  await using env = await createTestEnv();
  const { live, cassette, trap } = await recorded(env, TOOL_TURNS);
  await using _trap = trap;
  assert.equal(live.code, 0, live.stderr);
  assert.match(live.stdout, /^Let me look\.\n+The tool said from-tool\.\n$/);
  const replay = await env.run(["run", "-a", "coder", "--replay", cassette, "go"]);
  assert.equal(replay.code, 0, replay.stderr);
  assert.equal(replay.stdout, live.stdout);
  assert.equal(await Deno.readTextFile(`${env.workdir}/tool.log`), "ran\nran\n");
  assert.equal(trap.connections, 0);
});

Deno.test("a replay of a built-in provider needs no key and replays usage as recorded", async () => {
  await using env = await createTestEnv();
  await using trap = startNetworkTrap();
  const anthropic = (url: string) =>
    `default_model: anthropic/claude-test\nenvironment_context: false\nproviders:\n  anthropic:\n    base_url: ${url}\n`;
  const args = ["run", "-a", "coder", "--output", "json", "go"];
  const cassette = `${env.root}/run.cassette.jsonl`;
  let live;
  {
    await using provider = await startFakeProvider(TOOL_TURNS);
    await env.writeConfig(anthropic(provider.url));
    live = await env.run([...args, "--record", cassette], {
      env: { ANTHROPIC_API_KEY: "sk-ant-test-0123456789abcdef" },
    });
  }
  assert.equal(live.code, 0, live.stderr);
  assert.ok(!(await Deno.readTextFile(cassette)).includes("0123456789abcdef"));
  await env.writeConfig(anthropic(trap.url));
  const keyless = await env.run(args);
  assert.equal(keyless.code, 1);
  assert.match(lastLine(keyless.stderr), /ANTHROPIC_API_KEY/);
  const replay = await env.run([...args, "--replay", cassette]);
  assert.equal(replay.code, 0, replay.stderr);
  const [replayed] = parseJsonLines(replay.stdout, "stdout");
  const [original] = parseJsonLines(live.stdout, "stdout");
  assert.equal(replayed?.text, "The tool said from-tool.");
  assert.deepEqual(replayed?.usage, original?.usage);
  assert.deepEqual(replayed?.usage, {
    inputTokens: 40,
    outputTokens: 12,
    reasoningTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
  });
  assert.equal(trap.connections, 0);
});

Deno.test("a cassette has a header, one line per exchange, and no key or configured header value", async () => {
  await using env = await createTestEnv();
  const trap = startNetworkTrap();
  await using _trap = trap;
  await using provider = await startFakeProvider([
    { status: 401, errorMessage: "bad key sk-live-0123456789abcdefghij echoed" },
  ]);
  const key = "sk-live-0123456789abcdefghij";
  await env.writeConfig(
    defaultConfig(provider.url).replace(
      "    api_key: test-key\n",
      `    api_key: ${key}\n    headers:\n      x-team-token: team-secret-value\n      x-org: acme-organisation\n`,
    ),
  );
  const cassette = `${env.root}/c.jsonl`;
  const result = await env.run(["run", "-a", "coder", "--record", cassette, "hello"]);
  assert.equal(result.code, 1);
  const text = await Deno.readTextFile(cassette);
  for (const secret of [key, "team-secret-value", "acme-organisation", "Bearer"]) {
    assert.ok(!text.includes(secret), `the cassette holds ${secret}: ${text}`);
  }
  const lines = parseJsonLines(text, cassette);
  assert.equal(lines.length, 2);
  assert.deepEqual(lines[0], { type: "header", format: 1, rienda: "0.1.0", agent: "coder" });
  const exchange = lines[1] ?? {};
  assert.equal(exchange.type, "exchange");
  assert.equal(exchange.protocol, "openai_chat_completions");
  assert.equal(exchange.provider, "fake");
  assert.equal(exchange.model, "fake/m");
  const request = exchange.request as Record<string, unknown>;
  const headers = request.headers as Record<string, string>;
  assert.equal(headers["authorization"], undefined);
  assert.equal(headers["x-team-token"], undefined);
  assert.equal(headers["x-org"], "[redacted]");
  assert.equal((request.body as Record<string, unknown>).model, "fake-model");
  assert.equal((exchange.response as Record<string, unknown>).status, 401);
});

Deno.test("a key the provider echoes split across two chunks is masked in the cassette too", async () => {
  await using env = await createTestEnv();
  const key = "sk-live-0123456789abcdefghij";
  const chunk = (content: string) =>
    `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`;
  const sse = chunk(`the key is ${key} indeed`) +
    `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}\n\n` +
    "data: [DONE]\n\n";
  const cut = sse.indexOf("0123456789") + 4;
  await using provider = await startFakeProvider([
    { rawStream: { chunks: [sse.slice(0, cut), sse.slice(cut)] }, chunkDelayMs: 100 },
  ]);
  await env.writeConfig(
    defaultConfig(provider.url).replace("api_key: test-key", `api_key: ${key}`),
  );
  const cassette = `${env.root}/c.jsonl`;
  const live = await env.run(["run", "-a", "coder", "--record", cassette, "hello"]);
  assert.equal(live.code, 0, live.stderr);
  const text = await Deno.readTextFile(cassette);
  assert.ok(!text.includes("sk-live-0123"), text);
  assert.ok(!text.includes("6789abcdefghij"), text);
  const replay = await env.run(["run", "-a", "coder", "--replay", cassette, "hello"]);
  assert.equal(replay.code, 0, replay.stderr);
  assert.equal(replay.stdout, live.stdout);
});

Deno.test("an error and the retries before it replay as recorded, waits included, without waiting", async () => {
  await using env = await createTestEnv();
  const { live, cassette, trap, requests } = await recorded(env, [
    { status: 503, errorMessage: "busy now" },
    { status: 500, errorMessage: "still busy" },
    { text: "finally" },
  ]);
  await using _trap = trap;
  assert.equal(live.code, 0, live.stderr);
  assert.equal(requests.length, 3);
  const replay = await env.run(["run", "-a", "coder", "--replay", cassette, "go"]);
  assert.equal(replay.code, 0, replay.stderr);
  assert.equal(replay.stdout, "finally\n");
  assert.deepEqual(retryLines(replay.stderr), retryLines(live.stderr));
  assert.equal(retryLines(replay.stderr).length, 2);
  assert.equal(trap.connections, 0);
});

Deno.test("a timeout replays as the same timeout, retried as recorded", async () => {
  await using env = await createTestEnv();
  await using trap = startNetworkTrap();
  const config = (url: string) =>
    defaultConfig(url).replace(
      "    api_key: test-key\n",
      "    api_key: test-key\n    timeout_ms: 300\n",
    );
  const cassette = `${env.root}/run.cassette.jsonl`;
  let live;
  {
    await using provider = await startFakeProvider([
      { text: "too late", firstByteDelayMs: 1_500 },
      { text: "in time" },
    ]);
    await env.writeConfig(config(provider.url));
    live = await env.run(["run", "-a", "coder", "--record", cassette, "go"]);
  }
  assert.equal(live.code, 0, live.stderr);
  await env.writeConfig(config(trap.url));
  const replay = await env.run(["run", "-a", "coder", "--replay", cassette, "go"]);
  assert.equal(replay.code, 0, replay.stderr);
  assert.equal(replay.stdout, "in time\n");
  const retries = retryLines(replay.stderr);
  assert.deepEqual(retries, retryLines(live.stderr));
  assert.match(retries[0]?.error ?? "", /^no response from .* within 300 ms/);
});

Deno.test("a failed run replays its failure: the same rienda: line and exit code", async () => {
  await using env = await createTestEnv();
  const { live, cassette, trap } = await recorded(env, [
    { status: 400, errorMessage: "your request is malformed" },
  ]);
  await using _trap = trap;
  assert.equal(live.code, 1);
  const replay = await env.run(["run", "-a", "coder", "--replay", cassette, "go"]);
  assert.equal(replay.code, 1);
  assert.equal(lastLine(replay.stderr), lastLine(live.stderr));
  assert.match(lastLine(replay.stderr), /your request is malformed \(status 400\)/);
});

for (const protocol of ["openai_chat_completions", "openai_responses", "anthropic"] as const) {
  Deno.test(`a cassette of the ${protocol} protocol replays a tool call, thinking and text`, async () => {
    await using env = await createTestEnv({ protocol });
    const { live, cassette, trap } = await recorded(env, TOOL_TURNS, undefined, protocol);
    await using _trap = trap;
    assert.equal(live.code, 0, live.stderr);
    const lines = parseJsonLines(await Deno.readTextFile(cassette), cassette);
    assert.deepEqual(lines.slice(1).map((line) => line.protocol), [protocol, protocol]);
    const replay = await env.run([
      "run",
      "-a",
      "coder",
      "--output",
      "stream-json",
      "--replay",
      cassette,
      "go",
    ]);
    assert.equal(replay.code, 0, replay.stderr);
    const events = parseJsonLines(replay.stdout, "stdout").map((event) => event.type);
    assert.ok(events.includes("thinking_delta"), replay.stdout);
    assert.ok(events.includes("tool_result"), replay.stdout);
    assert.equal(await Deno.readTextFile(`${env.workdir}/tool.log`), "ran\nran\n");
    assert.equal(trap.connections, 0);
  });
}

Deno.test("more requests than recorded: the replay fails naming the turn", async () => {
  await using env = await createTestEnv();
  // Recorded with --max-turns 1: the cassette ends after the tool call's turn.
  const { cassette, trap } = await recorded(env, TOOL_TURNS, [
    "run",
    "-a",
    "coder",
    "--max-turns",
    "1",
    "go",
  ]);
  await using _trap = trap;
  const replay = await env.run(["run", "-a", "coder", "--replay", cassette, "go"]);
  assert.equal(replay.code, 1);
  assert.equal(
    lastLine(replay.stderr),
    `rienda: --replay ${cassette}: turn 2: the run sends more requests than the cassette records (it ends after turn 1)`,
  );
  assert.equal(linesOf(replay.stderr).filter((line) => line.startsWith("rienda:")).length, 1);
  assert.equal(trap.connections, 0);
});

Deno.test("a different model: the replay fails naming the turn and both models", async () => {
  await using env = await createTestEnv();
  const { cassette, trap } = await recorded(env, TOOL_TURNS);
  await using _trap = trap;
  await env.writeConfig(
    defaultConfig(trap.url).replace(
      "      m:\n",
      "      other:\n        id: other-model\n      m:\n",
    ),
  );
  const replay = await env.run([
    "run",
    "-a",
    "coder",
    "-m",
    "fake/other",
    "--replay",
    cassette,
    "go",
  ]);
  assert.equal(replay.code, 1);
  assert.equal(
    lastLine(replay.stderr),
    `rienda: --replay ${cassette}: turn 1: the request is for model fake/other, the cassette recorded fake/m`,
  );
});

Deno.test("a different set of tools: the replay fails naming what is missing and what is new", async () => {
  await using env = await createTestEnv();
  const { cassette, trap } = await recorded(env, TOOL_TURNS);
  await using _trap = trap;
  await env.writeAgent("coder", { description: "Answers briefly.", tools: ["read", "grep"] });
  const replay = await env.run(["run", "-a", "coder", "--replay", cassette, "go"]);
  assert.equal(replay.code, 1);
  assert.equal(
    lastLine(replay.stderr),
    `rienda: --replay ${cassette}: turn 1: the request offers the tools grep, read, the cassette recorded shell (missing shell; new read, grep)`,
  );
});

Deno.test("--replay-strict names the first message that differs; without it a different tool result replays", async () => {
  await using env = await createTestEnv();
  const { cassette, trap } = await recorded(env, TOOL_TURNS);
  await using _trap = trap;
  // The tool's output changes: the second request carries another tool result.
  await env.writeFile("workspace/tool.log", "");
  const turns: Turn[] = [
    { toolCalls: [{ name: "shell", arguments: { command: "date +%N" } }] },
    { text: "done" },
  ];
  const second = await recorded(env, turns);
  await using _second = second.trap;
  const loose = await env.run(["run", "-a", "coder", "--replay", second.cassette, "go"]);
  assert.equal(loose.code, 0, loose.stderr);
  assert.equal(loose.stdout, "done\n");
  const strict = await env.run([
    "run",
    "-a",
    "coder",
    "--replay",
    second.cassette,
    "--replay-strict",
    "go",
  ]);
  assert.equal(strict.code, 1);
  assert.match(
    lastLine(strict.stderr),
    /^rienda: --replay .*: turn 2: message 3 \(tool\) differs from the cassette at content: recorded "\d+", sent "\d+"$/,
  );
  // Another prompt differs in the first message.
  const prompt = await env.run([
    "run",
    "-a",
    "coder",
    "--replay",
    cassette,
    "--replay-strict",
    "other",
  ]);
  assert.equal(prompt.code, 1);
  assert.equal(
    lastLine(prompt.stderr),
    `rienda: --replay ${cassette}: turn 1: message 1 (user) differs from the cassette at content: recorded "go", sent "other"`,
  );
});

Deno.test("--replay of a missing or broken cassette is one error naming the file", async () => {
  await using env = await createTestEnv();
  const missing = await env.run(["run", "-a", "coder", "--replay", "nope.jsonl", "go"]);
  assert.equal(missing.code, 1);
  assert.equal(
    lastLine(missing.stderr),
    `rienda: --replay ${env.workdir}/nope.jsonl: no such file: record it with --record ${env.workdir}/nope.jsonl`,
  );
  const broken = await env.writeFile(
    "broken.jsonl",
    '{"type":"header","format":1,"rienda":"0.1.0","agent":"coder"}\n{"type":"exchange","turn":0}\n',
  );
  const bad = await env.run(["run", "-a", "coder", "--replay", broken, "go"]);
  assert.equal(bad.code, 1);
  assert.equal(
    lastLine(bad.stderr),
    `rienda: ${broken}: line 2: turn must be a whole number of at least 1: record the cassette again with --record`,
  );
  const usage = await env.run(["run", "-a", "coder", "--replay-strict", "go"]);
  assert.equal(usage.code, 2);
  const both = await env.run(["run", "-a", "coder", "--replay", broken, "--record", "x", "go"]);
  assert.equal(both.code, 2);
});

Deno.test("an interrupted replay stops within a second with exit 130", async () => {
  await using env = await createTestEnv();
  const { cassette, trap } = await recorded(env, [
    { toolCalls: [{ name: "shell", arguments: { command: "echo started; sleep 1" } }] },
    { text: "done" },
  ]);
  await using _trap = trap;
  // The replay's tool sleeps for 30 s: interrupt it once it started.
  const text = await Deno.readTextFile(cassette);
  await Deno.writeTextFile(cassette, text.replace("sleep 1", "sleep 30"));
  await using child = await env.start(["run", "-a", "coder", "--replay", cassette, "go"]);
  await child.waitForStderr("started\n");
  const interrupted = performance.now();
  child.kill("SIGINT");
  const result = await child.wait();
  assert.equal(result.code, 130, result.stderr);
  assert.ok(performance.now() - interrupted < 5_000, "the interrupt took too long");
  assert.equal(lastLine(result.stderr), "rienda: the run was interrupted");
});

Deno.test(
  "the chat's --record writes one cassette for all its turns; its first turn replays with rienda run",
  { ignore: Deno.build.os !== "linux" },
  async () => {
    await using provider = await startFakeProvider([{ text: "first answer" }, {
      text: "second answer",
    }]);
    await using env = await createTestEnv({ provider });
    const cassette = `${env.root}/chat.cassette.jsonl`;
    await using pty = await startPty(["-a", "coder", "--record", cassette, "hello"], {
      cwd: env.workdir,
      home: env.userHome,
      riendaHome: env.home,
    });
    const ready = (screen: string) => screen.includes("Ask the agent something");
    await pty.waitFor((s) => s.includes("first answer") && ready(s), "the first answer");
    await pty.type("again\r");
    await pty.waitFor((s) => s.includes("second answer") && ready(s), "the second answer");
    await pty.type("\x04");
    assert.equal((await pty.wait()).code, 0);
    const lines = parseJsonLines(await Deno.readTextFile(cassette), cassette);
    assert.deepEqual(lines.map((line) => line.type), ["header", "exchange", "exchange"]);
    assert.deepEqual(lines.slice(1).map((line) => line.turn), [1, 2]);
    await provider.close();
    const replay = await env.run([
      "run",
      "-a",
      "coder",
      "--no-session",
      "--replay",
      cassette,
      "hello",
    ]);
    assert.equal(replay.code, 0, replay.stderr);
    assert.equal(replay.stdout, "first answer\n");
  },
);
