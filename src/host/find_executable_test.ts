import assert from "node:assert/strict";
import { join } from "node:path";
import { findExecutable } from "./find_executable.ts";

Deno.test("findExecutable() looks in PATH in order, for executable files only", async () => {
  const root = await Deno.makeTempDir();
  try {
    const [first, second] = [join(root, "a"), join(root, "b")];
    for (const dir of [first, second]) await Deno.mkdir(dir);
    await Deno.writeTextFile(join(first, "tool"), "#!/bin/sh\n");
    await Deno.writeTextFile(join(second, "tool"), "#!/bin/sh\n", { mode: 0o755 });
    await Deno.chmod(join(second, "tool"), 0o755);
    const search = { path: `${first}:${second}`, cwd: root };
    assert.equal(await findExecutable("tool", search), join(second, "tool"));
    assert.equal(await findExecutable("missing", search), null);
    assert.equal(await findExecutable("", search), null);
    assert.equal(await findExecutable("tool", { path: "", cwd: second }), join(second, "tool"));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("findExecutable() resolves a name with a slash against cwd", async () => {
  const root = await Deno.makeTempDir();
  try {
    const script = join(root, "run.sh");
    await Deno.writeTextFile(script, "#!/bin/sh\n");
    assert.equal(await findExecutable("./run.sh", { path: "", cwd: root }), null);
    await Deno.chmod(script, 0o755);
    assert.equal(await findExecutable("./run.sh", { path: "/nowhere", cwd: root }), script);
    assert.equal(await findExecutable(script, { path: "", cwd: "/" }), script);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
