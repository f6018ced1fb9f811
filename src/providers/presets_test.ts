import { deepStrictEqual as assertEquals, strictEqual } from "node:assert/strict";
import { BUILTIN_PROVIDER_NAMES } from "../config/builtin_names.ts";
import {
  DEFAULT_LOCAL_CONTEXT_WINDOW,
  knownContextWindow,
  PROVIDER_PRESETS,
  providerPreset,
} from "./presets.ts";

Deno.test("PROVIDER_PRESETS has one preset per built-in name, named after its key", () => {
  assertEquals(Object.keys(PROVIDER_PRESETS), [...BUILTIN_PROVIDER_NAMES]);
  for (const [name, preset] of Object.entries(PROVIDER_PRESETS)) {
    strictEqual(preset.name, name);
    strictEqual(preset.baseUrl.endsWith("/"), false, `${name} base URL ends in a slash`);
  }
});

Deno.test("providerPreset() gives the protocol and key variable of built-ins and nothing for others", () => {
  strictEqual(providerPreset("openai")?.protocol, "openai_responses");
  strictEqual(providerPreset("anthropic")?.keyEnv, "ANTHROPIC_API_KEY");
  strictEqual(providerPreset("gemini")?.protocol, "openai_chat_completions");
  strictEqual(providerPreset("ollama")?.keyEnv, null);
  strictEqual(providerPreset("lmstudio")?.defaultContextWindow, DEFAULT_LOCAL_CONTEXT_WINDOW);
  strictEqual(providerPreset("toString"), undefined);
  strictEqual(providerPreset("local"), undefined);
});

Deno.test("knownContextWindow() takes the longest matching prefix and ignores vendor prefixes", () => {
  strictEqual(knownContextWindow("gpt-4o-mini"), 128_000);
  strictEqual(knownContextWindow("gpt-4"), 8_192);
  strictEqual(knownContextWindow("gpt-4.1-mini"), 1_047_576);
  strictEqual(knownContextWindow("o1-mini"), 128_000);
  strictEqual(knownContextWindow("anthropic/claude-sonnet-4.5"), 200_000);
  strictEqual(knownContextWindow("Gemini-2.5-Pro"), 1_048_576);
  strictEqual(knownContextWindow("my-finetune"), undefined);
});
