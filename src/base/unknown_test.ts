import { strictEqual } from "node:assert/strict";
import { isRecord } from "./unknown.ts";

Deno.test("isRecord() accepts mappings only", () => {
  strictEqual(isRecord({}), true);
  strictEqual(isRecord([]), false);
  strictEqual(isRecord(null), false);
  strictEqual(isRecord("x"), false);
});
