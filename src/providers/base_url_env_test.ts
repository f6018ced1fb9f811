import assert from "node:assert/strict";
import { baseUrlFromEnv, BaseUrlVariableError } from "./base_url_env.ts";

const envOf = (values: Record<string, string>) => (name: string) => values[name];

Deno.test("OLLAMA_HOST is read as the Ollama CLI reads it", () => {
  const cases: [string, string][] = [
    ["127.0.0.1", "http://127.0.0.1:11434/v1"],
    ["0.0.0.0:11500", "http://0.0.0.0:11500/v1"],
    ["gpu-box", "http://gpu-box:11434/v1"],
    ["::1", "http://[::1]:11434/v1"],
    ["[::1]:8080", "http://[::1]:8080/v1"],
    ["http://gpu-box", "http://gpu-box/v1"],
    ["https://ollama.example.com/v1/", "https://ollama.example.com/v1"],
  ];
  for (const [value, expected] of cases) {
    assert.equal(baseUrlFromEnv("ollama", envOf({ OLLAMA_HOST: value })), expected, value);
  }
});

Deno.test("a base-URL variable: unset, empty and other providers give nothing; junk throws", () => {
  assert.equal(baseUrlFromEnv("openai", envOf({})), undefined);
  assert.equal(baseUrlFromEnv("openai", envOf({ OPENAI_BASE_URL: "  " })), undefined);
  assert.equal(baseUrlFromEnv("mistral", envOf({ OPENAI_BASE_URL: "http://x" })), undefined);
  assert.equal(baseUrlFromEnv("openai", envOf({ OPENAI_BASE_URL: "http://x/v1/" })), "http://x/v1");
  assert.throws(
    () => baseUrlFromEnv("openai", envOf({ OPENAI_BASE_URL: "not a url" })),
    BaseUrlVariableError,
  );
});
