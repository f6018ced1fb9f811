import assert from "node:assert/strict";
import { parseCapabilitySet } from "../../sandbox/capability_set.ts";
import type { Grant } from "../capabilities.ts";
import { checkHost, grantedPath, realPathOf, verifyOpened } from "./access.ts";
import { BridgeError } from "./arguments.ts";

const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "rienda-access-" }));

function grant(capabilities: unknown): Grant {
  const { set } = parseCapabilitySet(capabilities);
  return {
    kind: "tool",
    name: "t",
    path: "/h/tools/t/index.js",
    layers: [{ source: "declared", set }],
  };
}

Deno.test("realPathOf follows links as the kernel does: dangling ones, .. after a link, loops", async () => {
  await Deno.mkdir(`${root}/a/b`, { recursive: true });
  await Deno.mkdir(`${root}/elsewhere/deep`, { recursive: true });
  await Deno.symlink(`${root}/elsewhere/deep`, `${root}/a/link`);
  await Deno.symlink("../../nowhere/file", `${root}/a/b/dangling`);
  await Deno.symlink("loop2", `${root}/a/loop1`);
  await Deno.symlink("loop1", `${root}/a/loop2`);
  assert.equal(await realPathOf(`${root}/a/b/../b/./x`), `${root}/a/b/x`);
  // `..` after a link goes to the link target's parent, not back to `a`.
  assert.equal(await realPathOf(`${root}/a/link/../secret`), `${root}/elsewhere/secret`);
  assert.equal(await realPathOf(`${root}/a/b/dangling`), `${root}/nowhere/file`);
  assert.equal(await realPathOf(`${root}/a/missing/../link`), `${root}/elsewhere/deep`);
  await assert.rejects(() => realPathOf(`${root}/a/loop1`), /more than 40 symbolic links/);
});

Deno.test("grantedPath checks the real path against each grant root", async () => {
  const g = grant({ file: { read: ["a"], write: [] } });
  const request = (path: string) => ({
    fn: "ctx.file.read",
    mode: "read" as const,
    path,
    absolute: `${root}/${path}`,
    workdir: root,
  });
  assert.equal(await grantedPath(g, request("a/b/x")), `${root}/a/b/x`);
  await assert.rejects(() => grantedPath(g, request("a/link/x")), BridgeError);
  await assert.rejects(() => grantedPath(g, request("a/../elsewhere")), BridgeError);
  await assert.rejects(
    () => grantedPath(g, request("ab")),
    BridgeError,
    "a prefix is not a parent",
  );
  const full: Grant = { ...g, layers: [] };
  assert.equal(await grantedPath(full, request("a/link/x")), `${root}/a/link/x`);
});

Deno.test("verifyOpened refuses a file swapped after the check", async () => {
  const g = grant({ file: { write: ["."] } });
  const path = `${root}/swapped.txt`;
  await Deno.writeTextFile(path, "first");
  using file = await Deno.open(path, { read: true });
  await verifyOpened(g, "ctx.file.read", "swapped.txt", path, file);
  await Deno.rename(path, `${root}/moved.txt`);
  await Deno.writeTextFile(path, "second");
  await assert.rejects(
    () => verifyOpened(g, "ctx.file.read", "swapped.txt", path, file),
    /ctx\.file\.read: "swapped\.txt" changed while it was opened/,
  );
});

Deno.test("checkHost matches hosts, subdomain wildcards, ports and any host", () => {
  const g = grant({ http: ["api.github.com", "*.example.com", "127.0.0.1:8080"] });
  const allowed = (url: string) => {
    try {
      checkHost(g, "ctx.http.fetch", new URL(url));
      return true;
    } catch {
      return false;
    }
  };
  assert.deepEqual(
    [
      "https://API.github.com/x",
      "https://api.github.com./x",
      "https://a.b.example.com/",
      "https://example.com/",
      "https://evilexample.com/",
      "http://127.0.0.1:8080/",
      "http://127.0.0.1/",
      "https://api.github.com.evil.io/",
    ].map(allowed),
    [true, true, true, false, false, true, false, false],
  );
  assert.equal(allowed("http://x/"), false);
  const any = grant({ http: ["*"] });
  checkHost(any, "ctx.http.fetch", new URL("http://anything.test/"));
});
