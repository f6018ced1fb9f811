import { deepStrictEqual } from "node:assert/strict";
import { createSessionHook, parseSessionHook } from "./session_hook.ts";

const never = new AbortController().signal;

Deno.test("parseSessionHook() takes a program and its words, and refuses shell syntax", () => {
  deepStrictEqual(parseSessionHook("post-tool  node hooks/post.mjs {tool} {path} "), {
    kind: "post-tool",
    argv: ["node", "hooks/post.mjs", "{tool}", "{path}"],
  });
  for (const syntax of [";", "&&", "||", "|", "&", "<", ">", "$(", "`"]) {
    deepStrictEqual(parseSessionHook(`pre-tool sh -c x${syntax}y`), {
      problem: `a hook is a program and its arguments, run without a shell: ${
        JSON.stringify(syntax)
      } is shell syntax (put the steps in a script and name the script)`,
    });
  }
  for (
    const [words, literal] of [
      ["pre-tool node -e 'process.exit(2)'", "'"],
      ['pre-tool node -e "process.exit(2)"', '"'],
      ["pre-tool hooks/check.sh $HOME", "$HOME"],
      ["pre-tool hooks/check.sh ${HOME}/x", "${HOME}"],
      ["pre-tool ~/hooks/check.sh", "~"],
    ] as const
  ) {
    deepStrictEqual(parseSessionHook(words), {
      problem: `a hook is a program and its words split at spaces, never read by a shell: ${
        JSON.stringify(literal)
      } would reach the program as it is (quotes, $VARIABLES and ~ are not read; put the steps in a script and name the script)`,
    });
  }
  // A ~ or a $ inside a word is only a character.
  deepStrictEqual(parseSessionHook("pre-tool hooks/check.sh a~b cost$"), {
    kind: "pre-tool",
    argv: ["hooks/check.sh", "a~b", "cost$"],
  });
  deepStrictEqual(parseSessionHook("pre-tool hooks/{tool}.sh {path}"), {
    problem:
      `the program cannot hold {tool}: the model's call would choose what runs; pass it as an argument (such as [hooks/dispatch.sh, "{tool}"])`,
  });
  deepStrictEqual(parseSessionHook("stop x"), {
    problem: "usage: /hooks add pre-tool|post-tool PROGRAM ARGS...",
  });
  deepStrictEqual(parseSessionHook("pre-tool"), {
    problem: "usage: /hooks add pre-tool PROGRAM ARGS...",
  });
});

Deno.test("createSessionHook() refuses a call in its own words, and appends a failed post-tool line", async () => {
  const workdir = await Deno.makeTempDir({ prefix: "rienda-session-hook-" });
  const context = { workdir, session: { id: "s", agentId: "a", modelId: "m" } };
  const script =
    "const [event, tool, path] = process.argv.slice(1); if (path.startsWith('generated/')) { console.error(event + ' ' + tool + ': generated/ is rebuilt'); process.exit(2); }";
  const pre = createSessionHook(
    { kind: "pre-tool", argv: ["node", "-e", script, "{event}", "{tool}", "{path}"] },
    1,
    context,
  );
  const call = (path: string) => ({ id: "c", name: "write", arguments: { path, content: "" } });
  deepStrictEqual(
    await pre.call("beforeToolExecute", [call("generated/x.ts")], { signal: never }),
    {
      kind: "answered",
      value: {
        allow: false,
        reason: `pre-tool hook #1 (node -e ${
          JSON.stringify(script)
        } {event} {tool} {path}) exited 2: pre-tool write: generated/ is rebuilt`,
      },
    },
  );
  deepStrictEqual(await pre.call("beforeToolExecute", [call("src/x.ts")], { signal: never }), {
    kind: "answered",
    value: null,
  });
  const post = createSessionHook({ kind: "post-tool", argv: ["false"] }, 2, context);
  deepStrictEqual(
    await post.call("afterToolExecute", [call("a"), { text: "wrote a", isError: false }], {
      signal: never,
    }),
    { kind: "answered", value: { text: "wrote a\n[post-tool hook #2 (false) exited 1]" } },
  );
  const missing = createSessionHook({ kind: "pre-tool", argv: ["no-such-program-x"] }, 3, context);
  deepStrictEqual(await missing.call("beforeToolExecute", [call("a")], { signal: never }), {
    kind: "answered",
    value: {
      allow: false,
      reason:
        'pre-tool hook #3 (no-such-program-x) cannot start: no such program "no-such-program-x" on PATH',
    },
  });
});
