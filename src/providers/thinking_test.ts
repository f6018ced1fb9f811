import { deepStrictEqual as assertEquals, strictEqual } from "node:assert/strict";
import { allowedThinkingLevels, anthropicThinkingBudget } from "./thinking.ts";

Deno.test("allowedThinkingLevels() adds a model's declared levels to off, low, medium and high", () => {
  assertEquals(allowedThinkingLevels(), ["off", "low", "medium", "high"]);
  assertEquals(allowedThinkingLevels(["minimal", "high", "xhigh"]), [
    "off",
    "low",
    "medium",
    "high",
    "minimal",
    "xhigh",
  ]);
});

Deno.test("anthropicThinkingBudget() maps the documented levels and token counts of at least 1024", () => {
  assertEquals(
    ["minimal", "low", "medium", "high", "xhigh"].map(anthropicThinkingBudget),
    [1024, 2048, 4096, 16384, 32768],
  );
  strictEqual(anthropicThinkingBudget("30000"), 30000);
  strictEqual(anthropicThinkingBudget("512"), undefined);
  strictEqual(anthropicThinkingBudget("0100"), undefined);
  strictEqual(anthropicThinkingBudget("turbo"), undefined);
  strictEqual(anthropicThinkingBudget("constructor"), undefined);
});
