import { strictEqual, throws } from "node:assert/strict";
import { type ModelNameSources, resolveModelName } from "./model_names.ts";

const NONE: ModelNameSources = { modelAliases: {}, providers: {}, file: "/h/config.yaml" };

Deno.test("resolveModelName() keeps provider/model and resolves aliases, prefixes and listed models", () => {
  strictEqual(resolveModelName("openrouter/anthropic/claude", NONE), "openrouter/anthropic/claude");
  strictEqual(resolveModelName("haiku", NONE), "anthropic/claude-haiku-4-5");
  strictEqual(resolveModelName("o3", NONE), "openai/o3");
  strictEqual(resolveModelName("o4-mini", NONE), "openai/o4-mini");
  strictEqual(resolveModelName("gemini-2.5-pro", NONE), "gemini/gemini-2.5-pro");
  strictEqual(resolveModelName("grok-4", NONE), "xai/grok-4");
  const sources = {
    ...NONE,
    modelAliases: { opus: "lab/big" },
    providers: { lab: { models: { q: {} } } },
  };
  strictEqual(resolveModelName("opus", sources), "lab/big", "model_aliases before the built-ins");
  strictEqual(resolveModelName("q", sources), "lab/q");
});

Deno.test("resolveModelName() lists the candidates of an ambiguous or unknown name", () => {
  const two = { ...NONE, providers: { a: { models: { q: {} } }, b: { models: { q: {} } } } };
  throws(() => resolveModelName("q", two), /^Error: model "q" is ambiguous: a\/q, b\/q all match/);
  throws(() => resolveModelName("o30", NONE), /unknown model "o30".*known prefixes: gpt-, o1, o3/);
});
