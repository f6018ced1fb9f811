import assert from "node:assert/strict";
import { validateToolArguments } from "./arguments.ts";
import { createShellTool } from "./shell.ts";
import type { ToolCallContext, ToolResult } from "./tool.ts";
import { MAX_TOOL_RESULT_BYTES, TRUNCATION_MARKER, utf8ByteLength } from "./truncate.ts";

const shell = createShellTool();

interface Call {
  readonly result: ToolResult;
  readonly live: string[];
}

async function call(
  args: Record<string, unknown>,
  options: { workdir?: string; signal?: AbortSignal; onOutput?: () => void } = {},
): Promise<Call> {
  const live: string[] = [];
  const context: ToolCallContext = {
    callId: "call_1",
    workdir: options.workdir ?? Deno.cwd(),
    signal: options.signal ?? new AbortController().signal,
    output: (text) => {
      live.push(text);
      options.onOutput?.();
    },
  };
  return { result: await shell.execute(args, context), live };
}

Deno.test("shell returns stdout as a successful result", async () => {
  const { result } = await call({ command: "echo hello" });
  assert.deepEqual(result, { text: "hello", isError: false });
});

Deno.test("shell says (no output) when a successful command printed nothing", async () => {
  const { result } = await call({ command: "true" });
  assert.deepEqual(result, { text: "(no output)", isError: false });
});

Deno.test("shell puts stderr after a stderr: line and the exit code last on failure", async () => {
  const { result } = await call({ command: "echo out; echo err >&2; exit 2" });
  assert.deepEqual(result, {
    text: "out\nstderr:\nerr\ncommand exited with code 2",
    isError: true,
  });
});

Deno.test("shell keeps a successful command's stderr without an error", async () => {
  const { result } = await call({ command: "echo warning >&2" });
  assert.deepEqual(result, { text: "stderr:\nwarning", isError: false });
});

Deno.test("shell reports a failure with no output by its exit code alone", async () => {
  const { result } = await call({ command: "exit 7" });
  assert.deepEqual(result, { text: "command exited with code 7", isError: true });
});

Deno.test("shell streams stdout and stderr live in the order they were written", async () => {
  const { live } = await call({
    command: "echo a; sleep 0.1; echo b >&2; sleep 0.1; echo c",
  });
  assert.deepEqual(live, ["a\n", "b\n", "c\n"]);
});

Deno.test("shell times out with the duration in milliseconds under a second", async () => {
  const started = Date.now();
  const { result } = await call({ command: "echo start; sleep 30", "timeout_ms": 200 });
  assert.ok(Date.now() - started < 2000);
  assert.deepEqual(result, { text: "start\ncommand timed out after 200ms", isError: true });
});

Deno.test("shell times out with the duration in seconds from one second on", async () => {
  const { result } = await call({ command: "sleep 30", "timeout_ms": 1500 });
  assert.deepEqual(result, { text: "command timed out after 1.5s", isError: true });
});

Deno.test("shell resolves when the run's signal aborts", async () => {
  const controller = new AbortController();
  const started = Date.now();
  const { result } = await call({ command: "echo go; sleep 30" }, {
    signal: controller.signal,
    onOutput: () => controller.abort(),
  });
  assert.ok(Date.now() - started < 2000);
  assert.equal(result.isError, true);
});

Deno.test("shell runs in workdir relative to the workspace", async () => {
  const workspace = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${workspace}/sub/dir`, { recursive: true });
    const { result } = await call({ command: "pwd", workdir: "sub/dir" }, { workdir: workspace });
    assert.equal(result.text, `${await Deno.realPath(workspace)}/sub/dir`);
    const root = await call({ command: "pwd" }, { workdir: workspace });
    assert.equal(root.result.text, await Deno.realPath(workspace));
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
});

Deno.test("shell refuses a workdir that is missing or not a directory", async () => {
  const workspace = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${workspace}/file.txt`, "x");
    const missing = await call({ command: "pwd", workdir: "nope" }, { workdir: workspace });
    assert.deepEqual(missing.result, {
      text: `workdir "nope" does not exist (resolved to "${workspace}/nope")`,
      isError: true,
    });
    const file = await call({ command: "pwd", workdir: "file.txt" }, { workdir: workspace });
    assert.deepEqual(file.result, {
      text: `workdir "file.txt" is not a directory (resolved to "${workspace}/file.txt")`,
      isError: true,
    });
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
});

Deno.test("shell keeps long output under the cap and its status line last", async () => {
  const { result, live } = await call({
    command: `head -c 400000 /dev/zero | tr '\\0' a; echo oops >&2; exit 1`,
  });
  assert.equal(result.isError, true);
  assert.ok(utf8ByteLength(result.text) <= MAX_TOOL_RESULT_BYTES);
  assert.ok(
    result.text.endsWith(`${TRUNCATION_MARKER}\nstderr:\noops\ncommand exited with code 1`),
  );
  assert.equal(live.join("").length, 400000 + "oops\n".length);
});

Deno.test("shell's schema requires command and bounds timeout_ms", async () => {
  const check = async (raw: unknown) => {
    const outcome = await validateToolArguments(shell, raw);
    return outcome.ok ? "ok" : outcome.message;
  };
  assert.equal(await check({ command: "ls", workdir: "a", "timeout_ms": 1_800_000 }), "ok");
  assert.equal(await check({}), 'the tool was not executed: "command" is required');
  assert.equal(
    await check({ command: "ls", "timeout_ms": 0 }),
    'the tool was not executed: "timeout_ms" must be >= 1 (found 0)',
  );
  assert.equal(
    await check({ command: "ls", "timeout_ms": 1_800_001 }),
    'the tool was not executed: "timeout_ms" must be <= 1800000 (found 1800001)',
  );
  assert.equal(
    await check({ command: "ls", cwd: "/" }),
    'the tool was not executed: unexpected property "cwd"',
  );
});
