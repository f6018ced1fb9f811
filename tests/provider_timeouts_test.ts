import assert from "node:assert/strict";
import { lastLine, retryLines } from "./harness/assertions.ts";
import { createTestEnv, defaultConfig } from "./harness/env.ts";
import { startFakeProvider, type Turn } from "./harness/fake_provider.ts";

function retryErrors(stderr: string): string[] {
  return retryLines(stderr).map((retry) => retry.error);
}

async function runWithTimeouts(turns: Turn[], settings: string) {
  await using provider = await startFakeProvider(turns);
  await using env = await createTestEnv({ provider });
  await env.writeConfig(
    defaultConfig(provider.url).replace("    models:", `${settings}\n    models:`),
  );
  const result = await env.run(["run", "-a", "coder", "go"]);
  return { result, requests: provider.requests.length, url: provider.url };
}

Deno.test("a provider that does not answer within timeout_ms is retried like a cut stream", async () => {
  const { result, requests, url } = await runWithTimeouts(
    [{ firstByteDelayMs: 30_000, text: "far too late" }, { text: "in time" }],
    "    timeout_ms: 300",
  );
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "in time\n");
  assert.equal(requests, 2);
  assert.deepEqual(retryErrors(result.stderr), [
    `no response from ${url}/chat/completions within 300 ms (the provider's timeout_ms)`,
  ]);
});

Deno.test("a stream silent for stream_idle_timeout_ms is retried and its partial text dropped", async () => {
  const { result, requests } = await runWithTimeouts(
    [{ text: "STALLED-PARTIAL", chunks: 3, chunkDelayMs: 30_000 }, { text: "the whole answer" }],
    "    stream_idle_timeout_ms: 300",
  );
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "the whole answer\n");
  assert.equal(requests, 2);
  assert.deepEqual(retryErrors(result.stderr), [
    "the stream stalled: no data for 300 ms (the provider's stream_idle_timeout_ms)",
  ]);
  assert.ok(!result.stderr.includes("STALLED"), result.stderr);
});

Deno.test("a timeout that is not a positive integer of at most 2^31 - 1 ms is a config error", async () => {
  await using env = await createTestEnv();
  for (
    const [line, problem] of [
      ["timeout_ms: 0", "timeout_ms: must be at least 1 (found 0)"],
      [
        "stream_idle_timeout_ms: 3000000000",
        "stream_idle_timeout_ms: must be at most 2147483647 (found 3000000000)",
      ],
    ]
  ) {
    const file = await env.writeConfig(
      defaultConfig("http://127.0.0.1:1/v1").replace("    models:", `    ${line}\n    models:`),
    );
    const result = await env.run(["run", "-a", "coder", "go"]);
    assert.equal(result.code, 1, result.stderr);
    assert.equal(lastLine(result.stderr), `rienda: ${file}: providers.fake.${problem}`);
  }
});
