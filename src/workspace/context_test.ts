import assert from "node:assert/strict";
import { loadWorkspaceContext, systemPromptWith } from "./context.ts";

async function workspace(files: Record<string, string>): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "rienda-workspace-" });
  for (const [path, text] of Object.entries(files)) {
    const full = `${dir}/${path}`;
    await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(full, text);
  }
  return dir;
}

Deno.test("loadWorkspaceContext() prefers AGENTS.md over CLAUDE.md", async () => {
  const dir = await workspace({ "AGENTS.md": "\nUse tabs.\n", "CLAUDE.md": "Use spaces." });
  try {
    const context = await loadWorkspaceContext(dir);
    assert.deepEqual(context.instructions, [{ file: "AGENTS.md", text: "Use tabs." }]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loadWorkspaceContext() falls back to CLAUDE.md and finds nothing in an empty workspace", async () => {
  const dir = await workspace({ "CLAUDE.md": "Use spaces.\r\n" });
  const empty = await workspace({});
  try {
    assert.deepEqual((await loadWorkspaceContext(dir)).instructions, [{
      file: "CLAUDE.md",
      text: "Use spaces.",
    }]);
    assert.deepEqual(await loadWorkspaceContext(empty, { environment: false }), {
      instructions: [],
      skills: [],
      environment: null,
      diagnostics: [],
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(empty, { recursive: true });
  }
});

Deno.test("loadWorkspaceContext() lists skills by folder and reports broken ones", async () => {
  const dir = await workspace({
    ".agents/skills/release/SKILL.md":
      "---\nname: release\ndescription: Cuts a release.\n---\nBODY",
    ".agents/skills/deploy/SKILL.md": "---\nname: ship\ndescription: Deploys.\n---\n",
    ".agents/skills/lint/SKILL.md": "---\nname: lint\n---\n",
    ".agents/skills/notes/README.md": "not a skill",
    ".agents/skills/raw/SKILL.md": "no frontmatter",
  });
  try {
    const context = await loadWorkspaceContext(dir);
    assert.deepEqual(context.skills, [
      { name: "ship", description: "Deploys.", path: ".agents/skills/deploy/SKILL.md" },
      { name: "release", description: "Cuts a release.", path: ".agents/skills/release/SKILL.md" },
    ]);
    assert.deepEqual(context.diagnostics, [
      'skill "deploy": name "ship" does not match its folder (rename one to the other) (.agents/skills/deploy/SKILL.md)',
      'skill "lint": missing description (the skill is left out until it has one) (.agents/skills/lint/SKILL.md)',
      'skill "raw": missing frontmatter (start the file with "---", name:, description:, "---") (.agents/skills/raw/SKILL.md)',
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("systemPromptWith() appends labelled instructions and a catalog without skill bodies", () => {
  const prompt = systemPromptWith("You help.\n", {
    instructions: [{ file: "AGENTS.md", text: "Use tabs." }],
    skills: [{
      name: "release",
      description: "Cuts a release.",
      path: ".agents/skills/release/SKILL.md",
    }],
    environment: { workdir: "/w", platform: "linux (x86_64)", date: "2025-06-01", git: false },
    diagnostics: [],
  });
  assert.ok(prompt.startsWith("You help.\n\n"), prompt);
  assert.ok(
    prompt.endsWith(
      "<environment>\nworkspace: /w\nplatform: linux (x86_64)\ndate: 2025-06-01\n" +
        "git repository: no\n</environment>",
    ),
    prompt,
  );
  assert.ok(
    prompt.includes('<project-instructions file="AGENTS.md">\nUse tabs.\n</project-instructions>'),
    prompt,
  );
  assert.ok(
    prompt.includes("- release: Cuts a release. (file: .agents/skills/release/SKILL.md)"),
    prompt,
  );
  assert.ok(prompt.indexOf("Use tabs.") < prompt.indexOf("<skills>"));
});

Deno.test("loadWorkspaceContext() tells whether the workspace is in a git repository", async () => {
  const repo = await workspace({ ".git/HEAD": "ref: refs/heads/main\n", "src/a.ts": "" });
  const plain = await workspace({});
  try {
    const inside = await loadWorkspaceContext(`${repo}/src`);
    assert.equal(inside.environment?.git, true);
    assert.equal(inside.environment?.workdir, `${repo}/src`);
    assert.match(inside.environment?.date ?? "", /^\d{4}-\d{2}-\d{2}$/);
    assert.equal((await loadWorkspaceContext(plain)).environment?.git, false);
  } finally {
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(plain, { recursive: true });
  }
});
