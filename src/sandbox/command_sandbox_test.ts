import assert from "node:assert/strict";
import { refusalLine, sandboxPlan } from "./command_sandbox.ts";
import { modeSetting } from "./sandbox_setting.ts";

const WRITE = modeSetting("workspace-write");

Deno.test("refusalLine() names the setting for a refused write and an unreachable network only", () => {
  assert.match(
    refusalLine(WRITE, "sh: 1: cannot create /x: Read-only file system") ?? "",
    /^sandbox: the write was blocked/,
  );
  assert.match(
    refusalLine(WRITE, "curl: (6) Could not resolve host: example.com") ?? "",
    /^sandbox: the network is off/,
  );
  assert.equal(refusalLine({ ...WRITE, network: true }, "Could not resolve host: x"), null);
  assert.equal(refusalLine(WRITE, "make: *** [all] Error 1"), null);
  // Seatbelt refuses with EPERM, which on Linux means many other things.
  assert.equal(refusalLine(WRITE, "touch: /x: Operation not permitted", "linux"), null);
  assert.match(
    refusalLine(WRITE, "touch: /x: Operation not permitted", "darwin") ?? "",
    /^sandbox: the write/,
  );
});

Deno.test("sandboxPlan(): real paths, missing writable paths left out, .git and rienda's files protected", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir());
  try {
    await Deno.mkdir(`${root}/ws/.git`, { recursive: true });
    await Deno.mkdir(`${root}/ws/.rienda`);
    await Deno.mkdir(`${root}/cache`);
    await Deno.symlink(`${root}/cache`, `${root}/link`);
    const plan = await sandboxPlan(
      { mode: "workspace-write", network: false, writable: ["~/link", "/no/such/dir"] },
      { workspace: `${root}/ws`, home: root, protect: [`${root}/ws/.rienda`, `${root}/elsewhere`] },
      `${root}/tmp`,
    );
    assert.deepEqual(plan, {
      network: false,
      writable: [`${root}/tmp`, `${root}/ws`, `${root}/cache`],
      readOnly: [`${root}/ws/.git`, `${root}/ws/.rienda`],
    });
    const readOnly = await sandboxPlan(modeSetting("read-only"), {
      workspace: `${root}/ws`,
      home: root,
      protect: [],
    }, `${root}/tmp`);
    assert.deepEqual(readOnly.writable, [`${root}/tmp`]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
