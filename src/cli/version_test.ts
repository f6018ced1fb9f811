import assert from "node:assert/strict";
import { join } from "node:path";
import { parseBuildStamp } from "../base/version.ts";
import { checkoutCommit, versionLine } from "./version.ts";

const SHA = "1be2f67c0ffee0123456789abcdef0123456789a";
const OTHER = "9985876aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";

async function tree(files: Record<string, string>): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "rienda-version-" });
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(join(root, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(root, path), text);
  }
  return root;
}

Deno.test("parseBuildStamp() reads a release stamp and takes anything else for a checkout", () => {
  assert.deepEqual(parseBuildStamp("binary 1be2f67 2026-12-01"), {
    kind: "binary",
    commit: "1be2f67",
    date: "2026-12-01",
  });
  assert.deepEqual(parseBuildStamp("npm 1be2f67 2026-12-01").kind, "npm");
  for (const stamp of ["@rienda-build-stamp@", "binary 1be2f67", "other 1 2", "npm a b c", ""]) {
    assert.deepEqual(parseBuildStamp(stamp), { kind: "source" }, stamp);
  }
});

Deno.test("versionLine() names commit and date of a build, the checkout's commit from source", async () => {
  const build = { kind: "binary", commit: "1be2f67", date: "2026-12-01" } as const;
  assert.equal(versionLine(build), "rienda 0.1.0 (1be2f67, 2026-12-01)");
  const checkout = await tree({ ".git/HEAD": `${SHA}\n` });
  assert.equal(versionLine({ kind: "source" }, checkout), "rienda 0.1.0 (1be2f67)");
  const plain = await tree({ "src/main.ts": "" });
  assert.equal(versionLine({ kind: "source" }, plain), "rienda 0.1.0");
});

Deno.test("checkoutCommit() follows HEAD to a loose ref, a packed ref and a worktree's commondir", async () => {
  const loose = await tree({ ".git/HEAD": "ref: refs/heads/main\n", ".git/refs/heads/main": SHA });
  assert.equal(checkoutCommit(loose), "1be2f67");
  const packed = await tree({
    ".git/HEAD": "ref: refs/heads/main\n",
    ".git/packed-refs":
      `# pack-refs with: peeled fully-peeled sorted\n${OTHER} refs/heads/dev\n${SHA} refs/heads/main\n`,
  });
  assert.equal(checkoutCommit(packed), "1be2f67");
  const main = await tree({
    "repo/.git/packed-refs": `${SHA} refs/heads/feature\n`,
    "repo/.git/worktrees/wt/HEAD": "ref: refs/heads/feature\n",
    "repo/.git/worktrees/wt/commondir": "../..\n",
  });
  await Deno.mkdir(join(main, "wt"));
  await Deno.writeTextFile(join(main, "wt", ".git"), `gitdir: ${main}/repo/.git/worktrees/wt\n`);
  assert.equal(checkoutCommit(join(main, "wt")), "1be2f67");
});

Deno.test("checkoutCommit() is null for no repository, a broken HEAD or a ref escaping .git", async () => {
  assert.equal(checkoutCommit(await tree({ "README.md": "" })), null);
  assert.equal(checkoutCommit(await tree({ ".git/HEAD": "garbage\n" })), null);
  assert.equal(checkoutCommit(await tree({ ".git/HEAD": "ref: refs/heads/gone\n" })), null);
  const escaping = await tree({
    ".git/HEAD": "ref: refs/../../outside\n",
    "outside": SHA,
  });
  assert.equal(checkoutCommit(escaping), null);
});
