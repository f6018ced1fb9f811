import assert from "node:assert/strict";
import { chooseSandbox } from "./sandbox_choice.ts";
import { modeSetting, type SandboxSetting } from "./sandbox_setting.ts";

const home = "/home/ada";
const WRITE = modeSetting("workspace-write");
const READ = modeSetting("read-only");
const OFF = modeSetting("off");
const project = (setting: SandboxSetting) => ({
  setting,
  path: "/repo/.rienda/agents/default.md",
  fromProject: true,
});
const own = (setting: SandboxSetting) => ({
  setting,
  path: "/home/ada/.rienda/agents/a.md",
  fromProject: false,
});

Deno.test("chooseSandbox(): off when nothing sets it", () => {
  assert.deepEqual(chooseSandbox({ home }), { setting: OFF });
});

Deno.test("chooseSandbox(): the flag wins over the agent, the agent over config.yaml", () => {
  assert.deepEqual(chooseSandbox({ home, config: WRITE, agent: own(READ) }).setting, READ);
  assert.deepEqual(chooseSandbox({ home, config: READ, agent: own(OFF) }).setting, OFF);
  assert.deepEqual(
    chooseSandbox({ home, flag: "off", config: WRITE, agent: own(READ) }).setting,
    OFF,
  );
  assert.deepEqual(chooseSandbox({ home, flag: "read-only", config: OFF }).setting, READ);
});

Deno.test("chooseSandbox(): the flag changes the mode and keeps network and writable paths", () => {
  const config = { mode: "workspace-write", network: true, writable: ["~/.cache"] } as const;
  assert.deepEqual(chooseSandbox({ home, flag: "read-only", config }).setting, {
    ...config,
    mode: "read-only",
  });
});

Deno.test("chooseSandbox(): a project's agent file cannot turn the sandbox off, and says so", () => {
  const choice = chooseSandbox({ home, config: WRITE, agent: project(OFF) });
  assert.deepEqual(choice.setting, WRITE);
  assert.equal(
    choice.warning,
    "/repo/.rienda/agents/default.md: sandbox: asks for off, more than config.yaml allows " +
      "(workspace-write); an agent file of the project may only tighten the sandbox, so " +
      "commands run with workspace-write",
  );
  const flagged = chooseSandbox({ home, flag: "read-only", agent: project(WRITE) });
  assert.deepEqual(flagged.setting, READ);
  assert.match(flagged.warning ?? "", /more than --sandbox allows \(read-only\)/);
});

Deno.test("chooseSandbox(): a project's agent file may tighten, and cannot add network or paths", () => {
  assert.deepEqual(chooseSandbox({ home, config: WRITE, agent: project(READ) }), {
    setting: READ,
  });
  assert.deepEqual(chooseSandbox({ home, agent: project(WRITE) }), { setting: WRITE });
  const config = { mode: "workspace-write", network: false, writable: ["~/.cache"] } as const;
  const wants = {
    mode: "workspace-write",
    network: true,
    writable: ["~/.cache/deno", "/home/ada/.ssh", "~/.cache/../.ssh"],
  } as const;
  const choice = chooseSandbox({ home, config, agent: project(wants) });
  assert.deepEqual(choice.setting, {
    mode: "workspace-write",
    network: false,
    writable: ["~/.cache/deno"],
  });
  assert.match(choice.warning ?? "", /asks for workspace-write \(network, writable: /);
});
