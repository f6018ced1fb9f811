import assert from "node:assert/strict";
import { describeSandbox, parseSandboxSetting } from "./sandbox_setting.ts";

Deno.test("parseSandboxSetting() reads a bare mode with the network off and nothing extra writable", () => {
  assert.deepEqual(parseSandboxSetting("workspace-write"), {
    setting: { mode: "workspace-write", network: false, writable: [] },
    problems: [],
  });
  assert.deepEqual(parseSandboxSetting("read-only").setting.mode, "read-only");
  assert.deepEqual(parseSandboxSetting("off").setting, {
    mode: "off",
    network: true,
    writable: [],
  });
});

Deno.test("parseSandboxSetting() reads the object form", () => {
  const parsed = parseSandboxSetting({
    mode: "workspace-write",
    network: true,
    writable: ["~/.cache/deno", "/opt/build"],
  });
  assert.deepEqual(parsed.problems, []);
  assert.deepEqual(parsed.setting, {
    mode: "workspace-write",
    network: true,
    writable: ["~/.cache/deno", "/opt/build"],
  });
  assert.equal(
    describeSandbox(parsed.setting),
    "workspace-write (network, writable: ~/.cache/deno, /opt/build)",
  );
});

Deno.test("parseSandboxSetting() names each wrong field", () => {
  assert.deepEqual(parseSandboxSetting("workspace").problems, [
    { path: [], message: 'must be workspace-write, read-only or off (found "workspace")' },
  ]);
  assert.deepEqual(parseSandboxSetting(true).problems, [
    { path: [], message: "must be workspace-write, read-only or off (found boolean true)" },
  ]);
  assert.deepEqual(
    parseSandboxSetting({ network: "yes", writable: ["rel/dir", "/a/../etc", 3], extra: 1 })
      .problems,
    [
      { path: ["extra"], message: "unknown key (expected: mode, network, writable)" },
      { path: ["mode"], message: 'missing (add "mode: workspace-write")' },
      { path: ["network"], message: 'must be true or false (found "yes")' },
      {
        path: ["writable", 0],
        message: 'must be an absolute path or start with "~/" (found "rel/dir")',
      },
      {
        path: ["writable", 1],
        message: 'must not contain ".." (write the folder itself, found "/a/../etc")',
      },
      { path: ["writable", 2], message: "must be a path (found number 3)" },
    ],
  );
});
