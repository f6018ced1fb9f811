import { strictEqual } from "node:assert/strict";
import { maskSecret, redactSecrets, rememberSecret, secretStartAtEnd } from "./secrets.ts";

Deno.test("maskSecret() shows at most the first 3 and last 4 characters", () => {
  strictEqual(maskSecret("sk-proj-0123456789abcdef1234"), "sk-…1234");
  strictEqual(maskSecret("short-secret"), "[redacted]");
});

Deno.test("redactSecrets() hides every remembered secret, raw and JSON-escaped, longest first", () => {
  rememberSecret("sk-unit-aaaaaaaaaaaaaaaaaaaa1111");
  rememberSecret("sk-unit-aaaaaaaaaaaaaaaaaaaa1111-longer-bbbb");
  rememberSecret('quote"in-the-secret-value-2222');
  rememberSecret("tiny");
  strictEqual(
    redactSecrets(
      "a sk-unit-aaaaaaaaaaaaaaaaaaaa1111 b sk-unit-aaaaaaaaaaaaaaaaaaaa1111-longer-bbbb",
    ),
    "a sk-…1111 b sk-…bbbb",
  );
  strictEqual(
    redactSecrets(JSON.stringify({ error: 'quote"in-the-secret-value-2222' })),
    '{"error":"quo…2222"}',
  );
  strictEqual(redactSecrets("tiny words stay"), "tiny words stay");
});

Deno.test("secretStartAtEnd() measures the end of a text that may begin a secret", () => {
  rememberSecret("sk-tail-cccccccccccccccccccc3333");
  strictEqual(secretStartAtEnd("output: sk-tail-ccc"), "sk-tail-ccc".length);
  strictEqual(secretStartAtEnd("output: done\n"), 0);
});
