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
