import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { parseHookEntries } from "../config/parse_hook_entries.ts";
import { commandStdin, createCommandHook, expandArgv, readCommandResult } from "./command_hook.ts";
import type { HookProcessResult } from "./hook_process.ts";
import type { HookPoint } from "../engine/hooks.ts";
import { loadLinearRegExp } from "../base/linear_regexp.ts";

// Matchers run on RE2, loaded before a run builds its hooks.
await loadLinearRegExp();

const CONTEXT = {
  workdir: "/work/space",
  session: { id: "s1", agentId: "coder", modelId: "openai/gpt-4o" },
};

const call = (path: unknown, name = "write") => ({ id: "c1", name, arguments: { path } });

Deno.test("expandArgv() replaces {tool}, {event} and {path}, and a hostile value by -", () => {
  const argv = ["check", "{tool}", "{event}", "--path={path}"] as const;
  deepStrictEqual(expandArgv(argv, "beforeToolExecute", [call("src/a_b-1.ts")]), [
    "check",
    "write",
    "beforeToolExecute",
    "--path=src/a_b-1.ts",
  ]);
  for (
    const hostile of [
      "-rf",
      "--help",
      "a b",
      "$(touch x)",
      "`id`",
      "a;b",
      "a\nb",
      "",
      7,
      null,
      // Invisible format characters: a right-to-left override, a zero-width space.
      "src/\u202egpj.exe",
      "src/a\u200b.ts",
    ]
  ) {
    deepStrictEqual(expandArgv(["c", "{path}"], "beforeToolExecute", [call(hostile)]), ["c", "-"]);
  }
  deepStrictEqual(expandArgv(["c", "{tool}"], "beforeToolExecute", [call("x", "-x")]), ["c", "-"]);
  // Past one argument's system limit the hook could not start; a path of Linux's length still can.
  deepStrictEqual(expandArgv(["c", "{path}"], "beforeToolExecute", [call("./".repeat(2049))]), [
    "c",
    "-",
  ]);
  const longest = `${"a/".repeat(2047)}ab`;
  deepStrictEqual(expandArgv(["c", "{path}"], "beforeToolExecute", [call(longest)]), [
    "c",
    longest,
  ]);
  // The program is never expanded: a made-up tool name cannot choose what runs.
  deepStrictEqual(
    expandArgv(["hooks/{tool}.sh", "{tool}"], "afterToolExecute", [call("a", "../evil")]),
    [
      "hooks/{tool}.sh",
      "../evil",
    ],
  );
  deepStrictEqual(expandArgv(["c", "{tool}{path}", "{other}"], "beforeRun", [{ sessionId: "s" }]), [
    "c",
    "--",
    "{other}",
  ]);
  deepStrictEqual(expandArgv(["c", "{path}"], "afterToolExecute", [call("café/ü.md")]), [
    "c",
    "café/ü.md",
  ]);
});

Deno.test("commandStdin() hands the point, the session, the call and the result", () => {
  const args = [call("a.txt"), { text: "ok", isError: false }];
  deepStrictEqual(JSON.parse(commandStdin("afterToolExecute", args, CONTEXT)), {
    point: "afterToolExecute",
    session: { id: "s1", agentId: "coder", modelId: "openai/gpt-4o", workdir: "/work/space" },
    call: { id: "c1", name: "write", arguments: { path: "a.txt" } },
    result: { text: "ok", isError: false },
  });
  deepStrictEqual(JSON.parse(commandStdin("beforeToolExecute", args, CONTEXT)).result, undefined);
  deepStrictEqual(JSON.parse(commandStdin("afterRun", [{ reason: "end_turn" }], CONTEXT)), {
    point: "afterRun",
    session: { id: "s1", agentId: "coder", modelId: "openai/gpt-4o", workdir: "/work/space" },
    payload: { reason: "end_turn" },
  });
});

function exited(
  code: number,
  stdout = "",
  stderr = "",
  stdoutTruncated = false,
): HookProcessResult {
  return { kind: "exited", code, stdout, stderr, stdoutTruncated };
}

Deno.test("readCommandResult() reads exits, stdout and Nous's answers", () => {
  const read = (result: HookProcessResult, point: HookPoint = "beforeToolExecute") =>
    readCommandResult(point, result, 500);
  deepStrictEqual(read(exited(0, " \n")), { kind: "answered", value: null });
  deepStrictEqual(read(exited(0, '{"arguments":{"path":"b"}}')), {
    kind: "answered",
    value: { arguments: { path: "b" } },
  });
  deepStrictEqual(read(exited(0, '{"result":"allow"}')), {
    kind: "answered",
    value: { allow: true },
  });
  deepStrictEqual(read(exited(0, '{"result":"deny","reason":"Not permitted"}')), {
    kind: "answered",
    value: { allow: false, reason: "Not permitted" },
  });
  deepStrictEqual(read(exited(0, '{"result":"modify","changes":{"arguments":{"path":"/safe"}}}')), {
    kind: "answered",
    value: { arguments: { path: "/safe" } },
  });
  deepStrictEqual(read(exited(2, "out line\n", "\n  first reason  \nsecond\n")), {
    kind: "answered",
    value: { allow: false, reason: "first reason" },
  });
  deepStrictEqual(read(exited(2, "from stdout\n")), {
    kind: "answered",
    value: { allow: false, reason: "from stdout" },
  });
  deepStrictEqual(read(exited(2)), { kind: "answered", value: { allow: false } });
  deepStrictEqual(read(exited(1, "", "boom\n")), { kind: "failed", problem: "exited 1: boom" });
  deepStrictEqual(read(exited(0, "not json")), {
    kind: "failed",
    problem: "stdout is not JSON (a JSON object, or nothing): not json",
  });
  deepStrictEqual(read(exited(0, "[1]")), {
    kind: "failed",
    problem: "stdout must be a JSON object or nothing (found [1])",
  });
  deepStrictEqual(read(exited(0, '{"result":"maybe"}')), {
    kind: "failed",
    problem: '"result" must be "allow", "deny" or "modify" (found "maybe")',
  });
  deepStrictEqual(read(exited(0, "{", "", true)), {
    kind: "failed",
    problem: "wrote more than 1 MiB on stdout",
  });
  deepStrictEqual(read({ kind: "timeout", stderr: "" }), {
    kind: "failed",
    problem: "did not finish within 500 ms (timeout_ms)",
    timedOut: true,
  });
  deepStrictEqual(read({ kind: "not_started", problem: 'no such program "x" on PATH' }), {
    kind: "failed",
    problem: 'cannot start: no such program "x" on PATH',
  });
  deepStrictEqual(read({ kind: "killed", signal: "SIGSEGV", stderr: "" }), {
    kind: "failed",
    problem: "was killed by SIGSEGV",
  });
  deepStrictEqual(read({ kind: "interrupted" }), { kind: "interrupted" });
  deepStrictEqual(read(exited(2, "", "no"), "afterToolExecute"), {
    kind: "failed",
    problem: "exited 2 (a refusal), but afterToolExecute cannot refuse anything: no",
  });
  deepStrictEqual(read(exited(2, "", "no tickets"), "beforePrompt"), {
    kind: "answered",
    value: { allow: false, reason: "no tickets" },
  });
});

Deno.test("createCommandHook() runs a python3 policy with its placeholders and stdin", async () => {
  const workdir = await Deno.makeTempDir({ prefix: "rienda-command-hook-" });
  await Deno.mkdir(join(workdir, "hooks"));
  await Deno.writeTextFile(
    join(workdir, "hooks", "policy.py"),
    [
      "import json, sys",
      "event = json.load(sys.stdin)",
      "tool, path = sys.argv[1], sys.argv[2]",
      "if path.startswith('generated/'):",
      "    print('generated/ is rebuilt, not edited', file=sys.stderr)",
      "    sys.exit(2)",
      "print(json.dumps({'arguments': {**event['call']['arguments'], 'seen': tool + ':' + event['session']['workdir']}}))",
    ].join("\n"),
  );
  const { entries } = parseHookEntries([{
    command: ["python3", "hooks/policy.py", "{tool}", "{path}"],
    matcher: "write|edit",
  }]);
  const [entry] = entries;
  if (entry?.kind !== "command") throw new Error("not a command entry");
  const hook = createCommandHook(entry, { ...CONTEXT, workdir });
  strictEqual(hook.label, "python3 hooks/policy.py");
  deepStrictEqual(["write", "edit", "shell"].map(hook.matches), [true, true, false]);
  const signal = new AbortController().signal;
  deepStrictEqual(await hook.call("beforeToolExecute", [call("generated/x.ts")], { signal }), {
    kind: "answered",
    value: { allow: false, reason: "generated/ is rebuilt, not edited" },
  });
  deepStrictEqual(await hook.call("beforeToolExecute", [call("src/x.ts")], { signal }), {
    kind: "answered",
    value: { arguments: { path: "src/x.ts", seen: `write:${workdir}` } },
  });
});
