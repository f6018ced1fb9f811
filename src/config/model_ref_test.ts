import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import { isModelRef, ModelRefError, modelRefProblem, parseModelRef } from "./model_ref.ts";

Deno.test("parseModelRef() splits provider and model at the first slash", () => {
  deepStrictEqual(parseModelRef("openai/gpt-4o"), { provider: "openai", model: "gpt-4o" });
  deepStrictEqual(parseModelRef("openrouter/anthropic/claude-sonnet-4"), {
    provider: "openrouter",
    model: "anthropic/claude-sonnet-4",
  });
  deepStrictEqual(parseModelRef("local_2/qwen2.5-coder:7b"), {
    provider: "local_2",
    model: "qwen2.5-coder:7b",
  });
});

for (
  const bad of [
    "gpt-4o",
    "/gpt-4o",
    "openai/",
    "OpenAI/gpt-4o",
    "-x/gpt",
    "open ai/gpt",
    "openai/gpt 4o",
    "openai//gpt",
    "openrouter/anthropic/",
    "",
  ]
) {
  Deno.test(`parseModelRef() rejects ${JSON.stringify(bad)} with a ModelRefError`, () => {
    throws(() => parseModelRef(bad), (error: unknown) => {
      strictEqual(error instanceof ModelRefError, true);
      strictEqual(
        error instanceof Error && error.message,
        `malformed model reference ${
          JSON.stringify(bad)
        } (expected provider/model, e.g. openai/gpt-4o)`,
      );
      strictEqual(error instanceof ModelRefError && error.ref, bad);
      return true;
    });
  });
}

Deno.test("isModelRef() and modelRefProblem() agree with parseModelRef()", () => {
  strictEqual(isModelRef("groq/llama-3.3-70b"), true);
  strictEqual(isModelRef("llama"), false);
  strictEqual(modelRefProblem("groq/llama-3.3-70b"), undefined);
  strictEqual(
    modelRefProblem("llama"),
    'malformed model reference "llama" (expected provider/model, e.g. openai/gpt-4o)',
  );
});
