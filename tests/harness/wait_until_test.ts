import assert from "node:assert/strict";
import { waitUntil } from "./wait_until.ts";

const options = { timeoutMs: 200, onTimeout: () => new Error("timed out") };

Deno.test("waitUntil() resolves at once when the condition already holds", async () => {
  const listeners = new Set<() => void>();
  await waitUntil(() => true, listeners, options);
  assert.equal(listeners.size, 0);
});

Deno.test("waitUntil() resolves when a listener call finds the condition true", async () => {
  const listeners = new Set<() => void>();
  let ready = false;
  const waiting = waitUntil(() => ready, listeners, options);
  ready = true;
  for (const listener of [...listeners]) listener();
  await waiting;
  assert.equal(listeners.size, 0);
});

Deno.test("waitUntil() rejects with onTimeout() when the condition never holds", async () => {
  const listeners = new Set<() => void>();
  await assert.rejects(waitUntil(() => false, listeners, { ...options, timeoutMs: 20 }), {
    message: "timed out",
  });
  assert.equal(listeners.size, 0);
});

Deno.test("waitUntil() rejects with onEnded() when the producer ends first", async () => {
  const listeners = new Set<() => void>();
  const ended = Promise.resolve();
  await assert.rejects(
    waitUntil(() => false, listeners, { ...options, ended, onEnded: () => new Error("ended") }),
    { message: "ended" },
  );
  let ready = false;
  const late = Promise.resolve().then(() => (ready = true));
  await waitUntil(() => ready, listeners, { ...options, ended: late });
});
