import assert from "node:assert/strict";
import { toolCallView } from "./tool_call_view.ts";

Deno.test("toolCallView() titles a built-in call by its subject and locates its path", () => {
  assert.deepEqual(toolCallView("edit", { path: "src/a.ts", old_string: "a" }, "/w"), {
    title: "edit src/a.ts",
    kind: "edit",
    locations: [{ path: "/w/src/a.ts" }],
  });
  assert.deepEqual(toolCallView("grep", { pattern: "TODO", path: "src" }, "/w"), {
    title: "grep TODO in src",
    kind: "search",
    locations: [{ path: "/w/src" }],
  });
  assert.deepEqual(toolCallView("http", { url: "https://example.com" }, "/w"), {
    title: "http GET https://example.com",
    kind: "fetch",
    locations: [],
  });
  assert.deepEqual(toolCallView("read", { path: "/etc/hosts" }, "/w").locations, [
    { path: "/etc/hosts" },
  ]);
});

Deno.test("toolCallView() puts a shell command on one short line", () => {
  const view = toolCallView("shell", { command: `echo a\n  echo b${"x".repeat(300)}` }, "/w");
  assert.equal(view.kind, "execute");
  assert.ok(view.title.startsWith("shell echo a echo bxx"));
  assert.equal(view.title.length, "shell ".length + 200);
  assert.ok(view.title.endsWith("…"));
});

Deno.test("toolCallView() shows an unknown tool or bad arguments as `other` by name", () => {
  assert.deepEqual(toolCallView("mcp_fs_read", { path: "a" }, "/w"), {
    title: "mcp_fs_read",
    kind: "other",
    locations: [],
  });
  assert.deepEqual(toolCallView("read", "not an object", "/w"), {
    title: "read",
    kind: "read",
    locations: [],
  });
});
