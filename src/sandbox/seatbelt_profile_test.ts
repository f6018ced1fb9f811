import assert from "node:assert/strict";
import { seatbeltArgs, seatbeltProfile } from "./seatbelt_profile.ts";

const plan = {
  network: false,
  writable: ["/work/repo", "/tmp/rienda-sandbox-1"],
  readOnly: ["/work/repo/.git"],
};

// macOS only runs these profiles; here their text is checked as data.
Deno.test("seatbeltProfile(): writes only inside the writable paths, minus the protected ones", () => {
  const profile = seatbeltProfile(plan);
  assert.match(profile, /^\(version 1\)\n\(allow default\)\n\(deny file-write\*\)\n/);
  assert.match(
    profile,
    /\(require-all \(subpath \(param "W0"\)\) \(require-not \(subpath \(param "R0"\)\)\)\)/,
  );
  assert.match(profile, /\(deny network-outbound \(remote ip\)\)/);
  assert.doesNotMatch(seatbeltProfile({ ...plan, network: true }), /network/);
  // Paths travel as parameters: a quote in a path cannot end a string of the profile.
  const tricky = { ...plan, writable: ['/work/a") (allow file-write* (subpath "/'] };
  assert.doesNotMatch(seatbeltProfile(tricky), /allow file-write\* \(subpath "\//);
  assert.deepEqual(seatbeltArgs(tricky, ["sh"]).slice(2), [
    '-DW0=/work/a") (allow file-write* (subpath "/',
    "-DR0=/work/repo/.git",
    "--",
    "sh",
  ]);
});

// Runs the profile for real: only on macOS, where sandbox-exec exists.
Deno.test({
  name:
    "seatbeltArgs(): sandbox-exec lets a write into a writable folder through and refuses one outside",
  ignore: Deno.build.os !== "darwin",
  async fn() {
    const root = await Deno.realPath(await Deno.makeTempDir());
    try {
      await Deno.mkdir(`${root}/ws`);
      const confined = {
        network: false,
        writable: [`${root}/ws`],
        readOnly: [],
      };
      const output = await new Deno.Command("/usr/bin/sandbox-exec", {
        args: seatbeltArgs(confined, ["sh", "-c", `echo a > ${root}/ws/in; echo b > ${root}/out`]),
        stderr: "piped",
      }).output();
      assert.equal(await Deno.readTextFile(`${root}/ws/in`), "a\n");
      await assert.rejects(Deno.stat(`${root}/out`));
      assert.match(new TextDecoder().decode(output.stderr), /Operation not permitted/);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
