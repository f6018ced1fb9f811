import { deepStrictEqual as assertEquals, ok, strictEqual } from "node:assert/strict";
import {
  formatCredentials,
  loadCredentials,
  parseCredentials,
  saveCredentials,
} from "./credentials.ts";

const FILE = "/h/.rienda/credentials.json";

Deno.test("parseCredentials() reads one api_key per provider", () => {
  const text = '{"openai": {"api_key": "sk-1"}, "local": {"api_key": " key-2 \\n"}}';
  assertEquals(parseCredentials(text, FILE), {
    file: FILE,
    keys: { openai: "sk-1", local: "key-2" },
    warnings: [],
  });
  assertEquals(parseCredentials("", FILE).keys, {});
});

Deno.test("parseCredentials() warns about invalid JSON without quoting the file", () => {
  const credentials = parseCredentials('{"openai": {"api_key": "sk-secret"', FILE);
  assertEquals(credentials.keys, {});
  assertEquals(credentials.warnings, [
    `${FILE}: not valid JSON; its keys are ignored ("rienda auth login PROVIDER" rewrites it)`,
  ]);
});

Deno.test("parseCredentials() ignores malformed entries alone and never shows a string value", () => {
  const text = JSON.stringify({
    openai: "sk-secret",
    groq: { "api_key": "" },
    xai: { token: "x" },
    anthropic: { "api_key": "sk-ant" },
  });
  const credentials = parseCredentials(text, FILE);
  assertEquals(credentials.keys, { anthropic: "sk-ant" });
  assertEquals(credentials.warnings, [
    `${FILE}: openai: must be {"api_key": "<key>"} (found a string); the entry is ignored (run rienda auth login openai)`,
    `${FILE}: groq: must be {"api_key": "<key>"} (found an empty api_key); the entry is ignored (run rienda auth login groq)`,
    `${FILE}: xai: must be {"api_key": "<key>"} (found no api_key); the entry is ignored (run rienda auth login xai)`,
  ]);
  ok(credentials.warnings.every((warning) => !warning.includes("sk-secret")));
  strictEqual(parseCredentials('"sk-secret"', FILE).warnings[0]?.includes("sk-secret"), false);
});

Deno.test("saveCredentials() writes mode 0600 atomically and loadCredentials() reads it back", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/home/credentials.json`;
    assertEquals(await loadCredentials(file), { file, keys: {}, warnings: [] });
    await saveCredentials(file, { openai: "sk-1", anthropic: "sk-2" });
    strictEqual((await Deno.stat(file)).mode! & 0o777, 0o600);
    strictEqual(
      await Deno.readTextFile(file),
      formatCredentials({ anthropic: "sk-2", openai: "sk-1" }),
    );
    assertEquals((await loadCredentials(file)).keys, { anthropic: "sk-2", openai: "sk-1" });
    await saveCredentials(file, { openai: "sk-3" });
    assertEquals((await loadCredentials(file)).keys, { openai: "sk-3" });
    assertEquals([...Deno.readDirSync(`${dir}/home`)].map((entry) => entry.name), [
      "credentials.json",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loadCredentials() warns when other users may read the file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/credentials.json`;
    await Deno.writeTextFile(file, '{"openai": {"api_key": "sk-1"}}');
    await Deno.chmod(file, 0o644);
    const credentials = await loadCredentials(file);
    assertEquals(credentials.keys, { openai: "sk-1" });
    assertEquals(credentials.warnings, [
      `${file}: other users may read this file (mode 0644); run chmod 600 ${file}`,
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("formatCredentials() sorts providers and ends with a newline", () => {
  strictEqual(
    formatCredentials({ b: "2", a: "1" }),
    '{\n  "a": {\n    "api_key": "1"\n  },\n  "b": {\n    "api_key": "2"\n  }\n}\n',
  );
});
