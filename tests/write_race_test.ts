/**
 * `write` and `edit` resolve a path once and write through the real folder
 * they resolved, checked again before the rename: another process flipping
 * a link, or swapping a folder for a link, never makes a write land outside
 * the workspace.
 */

import assert from "node:assert/strict";
import { createTestEnv, type TestEnv } from "./harness/env.ts";
import { runToolCalls } from "./harness/tool_run.ts";

/**
 * `link`: `dir` is a link replaced atomically, again and again, by one to
 * `inside` or to `outside`. `swap`: the folder `dir` is moved aside, a link
 * to `outside` put in its place, then the folder put back (a folder a write
 * created meanwhile is removed first).
 */
const FLIPPER = `
const [mode, dir, inside, outside] = Deno.args;
const spare = dir + ".spare";
console.log("ready");
for (let n = 0; ; n++) {
  try {
    if (mode === "link") {
      Deno.symlinkSync(n % 2 === 0 ? outside : inside, spare);
      Deno.renameSync(spare, dir);
      continue;
    }
    Deno.renameSync(dir, spare);
    try { Deno.symlinkSync(outside, dir); } catch {}
    Deno.removeSync(dir, { recursive: true });
    Deno.renameSync(spare, dir);
  } catch {}
}
`;

/** Runs `count` writes and edits below `workspace/dir` while the flipper runs in `mode`. */
async function writeWhileFlipping(env: TestEnv, mode: "link" | "swap", count: number) {
  const outside = `${env.root}/outside`;
  await Deno.mkdir(outside);
  await env.writeFile("workspace/real/edit-me.txt", "old\n");
  await env.writeFile("outside/edit-me.txt", "old\n");
  const dir = `${env.workdir}/dir`;
  if (mode === "link") await Deno.symlink(`${env.workdir}/real`, dir);
  else await Deno.rename(`${env.workdir}/real`, dir);
  const flipper = new Deno.Command(Deno.execPath(), {
    args: ["eval", FLIPPER, mode, dir, `${env.workdir}/real`, outside],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  try {
    const reader = flipper.stdout.getReader();
    await reader.read(); // "ready": the flips have begun
    reader.releaseLock();
    const calls = Array.from({ length: count }, (_, index) =>
      index % 3 === 2
        ? {
          name: "edit",
          arguments: { path: "dir/edit-me.txt", old_string: "old", new_string: `new ${index}` },
        }
        : { name: "write", arguments: { path: `dir/f${index}.txt`, content: "data\n" } });
    assert.equal((await runToolCalls(env, calls)).length, count);
  } finally {
    flipper.kill("SIGKILL");
    await flipper.status;
    await flipper.stdout.cancel().catch(() => {});
  }
  const landed: string[] = [];
  for await (const entry of Deno.readDir(outside)) {
    const text = await Deno.readTextFile(`${outside}/${entry.name}`);
    // At worst an empty temporary file stays where a swapped link pointed: never the data.
    if (
      entry.name === "edit-me.txt"
        ? text !== "old\n"
        : !(entry.name.endsWith(".tmp") && text === "")
    ) {
      landed.push(entry.name);
    }
  }
  return landed;
}

for (const mode of ["link", "swap"] as const) {
  const what = mode === "link"
    ? "a link flipped between inside and outside"
    : "a folder swapped for a link to outside";
  Deno.test(`${what} by another process never carries a write outside the workspace`, async () => {
    await using env = await createTestEnv();
    const landed = await writeWhileFlipping(env, mode, 300);
    assert.deepEqual(landed, [], `writes landed outside the workspace: ${landed.join(", ")}`);
  });
}
