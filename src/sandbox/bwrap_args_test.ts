import assert from "node:assert/strict";
import { bwrapArgs } from "./bwrap_args.ts";

const plan = {
  network: false,
  writable: ["/work/repo/sub", "/tmp/rienda-sandbox-1", "/work/repo"],
  readOnly: ["/work/repo/.git"],
};

Deno.test("bwrapArgs(): read-only root, writable binds outer first, protected paths last, no network", () => {
  assert.deepEqual(bwrapArgs(plan, ["sh", "-c", "make"]), [
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--bind",
    "/work/repo",
    "/work/repo",
    "--bind",
    "/work/repo/sub",
    "/work/repo/sub",
    "--bind",
    "/tmp/rienda-sandbox-1",
    "/tmp/rienda-sandbox-1",
    "--ro-bind",
    "/work/repo/.git",
    "/work/repo/.git",
    "--unshare-pid",
    "--unshare-net",
    "--die-with-parent",
    "--new-session",
    "--cap-drop",
    "ALL",
    "--",
    "sh",
    "-c",
    "make",
  ]);
});

Deno.test("bwrapArgs(): the network on keeps the host's network namespace", () => {
  const args = bwrapArgs({ ...plan, network: true }, ["true"]);
  assert.equal(args.includes("--unshare-net"), false);
  assert.equal(args.includes("--unshare-pid"), true);
});
