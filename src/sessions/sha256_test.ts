import assert from "node:assert/strict";
import { sha256Hex } from "./sha256.ts";

async function reference(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

Deno.test("sha256Hex() matches Web Crypto at every padding boundary", async () => {
  for (const length of [0, 1, 3, 54, 55, 56, 57, 63, 64, 65, 119, 120, 200]) {
    const text = "ab/ñ".repeat(length).slice(0, length);
    assert.equal(sha256Hex(text), await reference(text), `length ${length}`);
  }
});

Deno.test("sha256Hex() gives the published digest of abc", () => {
  assert.equal(
    sha256Hex("abc"),
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
  );
});
