/**
 * Agent files run from cron (docs/cli.md, "From cron"): cron's environment
 * has `PATH=/usr/bin:/bin`, a `HOME`, and none of the shell profile's
 * variables, so the launcher goes in a folder the crontab's `PATH` names and
 * the key comes from `rienda auth login`.
 */

import assert from "node:assert/strict";
import { agentText, createTestEnv } from "./harness/env.ts";
import { startFakeProvider } from "./harness/fake_provider.ts";
import { DENO_CONFIG } from "./harness/rienda.ts";

Deno.test("a shebang agent runs in cron's environment once the crontab's PATH names the launcher's folder", async () => {
  await using provider = await startFakeProvider([{ text: "nightly report" }]);
  await using env = await createTestEnv({ provider, noConfig: true, noAgent: true });
  const bin = `${env.root}/bin`;
  // What cron gives a job: its own PATH and HOME, nothing of the login shell.
  const cron = { PATH: "/usr/bin:/bin", RIENDA_HOME: undefined, NO_COLOR: undefined };
  const installed = await env.exec(
    Deno.execPath(),
    ["task", "-q", "--config", DENO_CONFIG, "install", "--dir", bin],
    { env: cron },
  );
  assert.equal(installed.code, 0, installed.stderr);
  const home = `${env.userHome}/.rienda`;
  await Deno.mkdir(home, { recursive: true });
  await Deno.writeTextFile(
    `${home}/config.yaml`,
    `providers:\n  anthropic:\n    base_url: ${provider.url}\n`,
  );
  const login = await env.exec(`${bin}/rienda`, ["auth", "login", "anthropic"], {
    env: cron,
    stdin: "sk-ant-stored-for-cron\n",
  });
  assert.equal(login.code, 0, login.stderr);
  await env.writeFile(
    "workspace/report.md",
    `#!/usr/bin/env -S rienda run -f\n${agentText({ description: "Reports." }, "You report.")}`,
    0o755,
  );
  const withoutBin = await env.exec("./report.md", ["go"], { env: cron });
  assert.notEqual(withoutBin.code, 0);
  assert.match(withoutBin.stderr, /rienda.*No such file or directory/);
  const result = await env.exec("./report.md", ["go"], {
    env: { ...cron, PATH: `${bin}:/usr/bin:/bin` },
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "nightly report\n");
  assert.equal(provider.requests[0]?.path, "/v1/messages");
});
