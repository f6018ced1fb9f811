import assert from "node:assert/strict";
import { join } from "node:path";
import { projectDir, projectId, slugOf } from "./project.ts";

Deno.test("projectId() is the path slug, a dash and 8 hex of its SHA-256", async () => {
  // The first 8 hex digits of SHA-256("/home/Ana/code/Web App"), as `sha256sum` prints them.
  assert.equal(await projectId("/home/Ana/code/Web App"), "home-ana-code-web-app-822ca476");
});

Deno.test("projectId() is stable and ignores trailing separators", async () => {
  assert.equal(await projectId("/srv/repo"), await projectId("/srv/repo"));
  assert.equal(await projectId("/srv/repo/"), await projectId("/srv/repo"));
});

Deno.test("projectId() differs for workspaces whose slugs collide", async () => {
  const a = await projectId("/work/a-b");
  const b = await projectId("/work/a/b");
  const c = await projectId("/work/A/B");
  assert.equal(a.slice(0, -9), b.slice(0, -9));
  assert.notEqual(a, b);
  assert.notEqual(b, c);
});

Deno.test("slugOf() keeps the last 48 characters without edge dashes", () => {
  const slug = slugOf(`/very/${"deep/".repeat(20)}project_Name`);
  assert.ok(slug.length <= 48, slug);
  assert.ok(slug.endsWith("deep-project-name"), slug);
  assert.ok(!slug.startsWith("-"), slug);
  assert.equal(slugOf("/"), "root");
});

Deno.test("projectDir() is the project id under the sessions folder", async () => {
  assert.equal(await projectDir("/h/sessions", "/w"), join("/h/sessions", await projectId("/w")));
});
