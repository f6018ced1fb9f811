import assert from "node:assert/strict";
import { NO_APPROVAL } from "./approval.ts";
import { createGrepTool } from "./grep.ts";

Deno.test("grep stops its worker when the run is interrupted, without waiting for the file budget", async () => {
  const workdir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${workdir}/a.txt`, `${"a".repeat(60)}b\n`);
    const controller = new AbortController();
    const running = createGrepTool(NO_APPROVAL).execute({ pattern: "(a+)+$" }, {
      callId: "c",
      workdir,
      signal: controller.signal,
      output: () => {},
    });
    setTimeout(() => controller.abort(new Error("interrupted")), 200);
    // Without the interrupt the call would resolve after its 2 s budget with "grep stopped: …".
    await assert.rejects(running, /^Error: interrupted$/);
  } finally {
    await Deno.remove(workdir, { recursive: true });
  }
});
