import { strictEqual } from "node:assert/strict";
import { projectFileOf, projectFileOfShell } from "./project_files.ts";
import { expandArgv } from "./command_hook.ts";

const call = { id: "c1", name: "pre", arguments: { path: "guard.py" } };

Deno.test("projectFileOf() names the workspace file a hook would run, and nothing else", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/hooks`);
    for (const name of ["hooks/pre.mjs", "guard.py", "strict", "exit 0", "tool"]) {
      await Deno.writeTextFile(`${dir}/${name}`, "");
    }
    await Deno.writeTextFile(`${dir}/sh`, "", { mode: 0o755 });
    const path = Deno.env.get("PATH") ?? "/usr/bin:/bin";
    const of = (argv: [string, ...string[]], search = path) =>
      projectFileOf(argv, expandArgv(argv, "beforeToolExecute", [call]), dir, search);
    strictEqual(await of(["./hooks/pre.mjs"]), "./hooks/pre.mjs");
    strictEqual(await of(["node", "hooks/pre.mjs"]), "hooks/pre.mjs");
    strictEqual(await of(["python3", "guard.py"]), "guard.py");
    strictEqual(await of(["sh", "-c", "exit 0"], `.:${path}`), `${dir}/sh`);
    // Absolute paths, options, placeholders, words that are no paths, files that are not there.
    strictEqual(await of(["sh", "-c", "exit 0"]), null);
    strictEqual(await of(["/bin/sh", `${dir}/guard.py`, "--x=hooks/pre.mjs", "strict"]), null);
    strictEqual(await of(["node", "{tool}", "{path}", "tool"]), null);
    // The call chooses the file: a made-up tool "pre" runs hooks/pre.mjs.
    strictEqual(await of(["node", "hooks/{tool}.mjs"]), "hooks/pre.mjs");
    strictEqual(await of(["node", "hooks/none.mjs", "./missing.sh"]), null);
    strictEqual(await of(["./missing.sh"]), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("projectFileOfShell() reads a Claude Code hook's shell string word by word", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/.claude/hooks`, { recursive: true });
    await Deno.writeTextFile(`${dir}/.claude/hooks/format.sh`, "");
    await Deno.writeTextFile(`${dir}/check.py`, "");
    const of = (command: string) => projectFileOfShell(command, dir);
    strictEqual(
      await of('"$CLAUDE_PROJECT_DIR"/.claude/hooks/format.sh'),
      "./.claude/hooks/format.sh",
    );
    strictEqual(
      await of("sh ${CLAUDE_PROJECT_DIR}/.claude/hooks/format.sh"),
      "./.claude/hooks/format.sh",
    );
    strictEqual(await of("jq -r .x | python3 'check.py' 2>&1"), "check.py");
    strictEqual(await of(`python3 ~/.claude/hooks/check.py; python3 ${dir}/check.py`), null);
    strictEqual(await of('echo "$CLAUDE_PROJECT_DIR/.claude/hooks/none.sh" >&2; exit 2'), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
