import { equal, notEqual } from "node:assert/strict";
import {
  findToolName,
  MAX_MODEL_TOOL_NAME,
  modelToolName,
  sanitizeToolName,
} from "./tool_names.ts";

Deno.test("modelToolName() joins server and tool with __", () => {
  equal(modelToolName("github", "create_issue"), "github__create_issue");
  equal(modelToolName("everything", "get-sum"), "everything__get-sum");
});

Deno.test("modelToolName() replaces characters providers refuse", () => {
  equal(modelToolName("fs", "files.read"), "fs__files_read");
  equal(sanitizeToolName("a/b c.d"), "a_b_c_d");
});

Deno.test("modelToolName() keeps long names within 64 characters, distinct by a hash", () => {
  const long = "x".repeat(80);
  const a = modelToolName("server", `${long}a`);
  const b = modelToolName("server", `${long}b`);
  equal(a.length, MAX_MODEL_TOOL_NAME);
  equal(b.length, MAX_MODEL_TOOL_NAME);
  notEqual(a, b);
  equal(a, modelToolName("server", `${long}a`), "the same tool gets the same name");
  equal(/^[A-Za-z0-9_-]+$/.test(a), true);
  equal(modelToolName("s".repeat(64), "t").length, MAX_MODEL_TOOL_NAME);
  equal(modelToolName("a".repeat(30), "b".repeat(32)).length, 64, "64 exactly is kept whole");
  equal(modelToolName("a".repeat(30), "b".repeat(32)), `${"a".repeat(30)}__${"b".repeat(32)}`);
});

Deno.test("findToolName() takes the exact name, else the sanitized one", () => {
  const names = ["files.read", "files_read_all", "echo"];
  equal(findToolName(names, "echo"), "echo");
  equal(findToolName(names, "files.read"), "files.read");
  equal(findToolName(names, "files_read"), "files.read");
  equal(findToolName(names, "nope"), undefined);
});
