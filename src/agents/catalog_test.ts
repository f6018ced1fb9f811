import { deepStrictEqual, rejects, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { AgentFileError } from "./agent_file.ts";
import { agentPath, listAgentIds, listAgents, loadAgent } from "./catalog.ts";
import { homeSource } from "./agent_sources.ts";
import { BUILTIN_AGENT_PATH } from "./default_agent.ts";
import { AGENT_ID_RULE } from "../base/names.ts";

async function withAgents(
  files: Record<string, string>,
  body: (dir: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    for (const [name, text] of Object.entries(files)) {
      if (name.endsWith("/")) await Deno.mkdir(join(dir, name));
      else await Deno.writeTextFile(join(dir, name), text);
    }
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function agent(description: string): string {
  return `---\ndescription: ${description}\n---\nPrompt of ${description}.\n`;
}

Deno.test("agentPath() is <agentsDir>/<id>.md", () => {
  strictEqual(agentPath("/h/.rienda/agents", "review"), "/h/.rienda/agents/review.md");
});

Deno.test("loadAgent() loads <id>.md from the folder", async () => {
  await withAgents({ "review.md": agent("Reviews") }, async (dir) => {
    const definition = await loadAgent([homeSource(dir)], "review");
    deepStrictEqual([definition.id, definition.path, definition.description], [
      "review",
      join(dir, "review.md"),
      "Reviews",
    ]);
  });
});

Deno.test("loadAgent() names the missing file and the available agents", async () => {
  await withAgents(
    { "b.md": agent("B"), "a.md": "broken", "notes.txt": "", "sub.md/": "", ".x.md": "" },
    async (dir) => {
      await rejects(loadAgent([homeSource(dir)], "ghost"), (error: unknown) => {
        strictEqual(error instanceof AgentFileError, true);
        strictEqual(
          error instanceof AgentFileError && error.message,
          `agent "ghost" not found: ${
            join(dir, "ghost.md")
          } does not exist (available: a, b, default)`,
        );
        strictEqual(error instanceof AgentFileError && error.path, join(dir, "ghost.md"));
        return true;
      });
    },
  );
});

Deno.test("loadAgent() says none are available when the folder is missing", async () => {
  const dir = join(await Deno.makeTempDir(), "agents");
  try {
    await rejects(loadAgent([homeSource(dir)], "ghost"), {
      name: "AgentNotFoundError",
      message: `agent "ghost" not found: ${
        join(dir, "ghost.md")
      } does not exist (available: default)`,
    });
  } finally {
    await Deno.remove(join(dir, ".."), { recursive: true });
  }
});

Deno.test("loadAgent() rejects an id that is not a valid name before touching the disk", async () => {
  for (const id of ["../secret", "a b", "", ".hidden", "a/b"]) {
    await rejects(loadAgent([homeSource("/nonexistent")], id), {
      name: "AgentFileError",
      message: `invalid agent id ${JSON.stringify(id)} (expected ${AGENT_ID_RULE})`,
      field: "id",
    });
  }
});

Deno.test("loadAgent() passes the file's own errors through", async () => {
  await withAgents({ "bad.md": "---\ndescription: x\nmodel: no pe\n---\n" }, async (dir) => {
    await rejects(loadAgent([homeSource(dir)], "bad"), {
      name: "AgentFileError",
      message: `${join(dir, "bad.md")}:3: model: malformed model reference "no pe" ` +
        "(expected provider/model, e.g. openai/gpt-4o)",
    });
  });
});

Deno.test("listAgents() returns agents sorted by id and the problems of broken files", async () => {
  await withAgents(
    {
      "zeta.md": agent("Z"),
      "alpha.md": agent("A"),
      "mid.md": "no frontmatter",
      "bad name.md": agent("B"),
      "readme.txt": "ignored",
      "folder.md/": "",
      ".#alpha.md": "editor lock",
    },
    async (dir) => {
      const { agents, problems } = await listAgents([homeSource(dir)]);
      deepStrictEqual(agents.map((a) => [a.id, a.description]), [["alpha", "A"], ["zeta", "Z"]]);
      deepStrictEqual(problems, [
        {
          path: join(dir, "bad name.md"),
          message: `${join(dir, "bad name.md")}: invalid agent id "bad name" ` +
            `(rename the file to ${AGENT_ID_RULE}, then ".md")`,
        },
        {
          path: join(dir, "mid.md"),
          message:
            `${
              join(dir, "mid.md")
            }:1: missing frontmatter (the file must start with a "---" line, ` +
            'then fields such as "description: Reviews a diff.", then a closing "---" line)',
        },
      ]);
    },
  );
});

Deno.test("listAgents() and listAgentIds() treat a missing folder as no agents", async () => {
  const dir = join(await Deno.makeTempDir(), "agents");
  try {
    deepStrictEqual(await listAgents([homeSource(dir)]), {
      agents: [],
      problems: [],
      origins: new Map(),
      leftOut: new Map(),
    });
    deepStrictEqual(await listAgentIds([homeSource(dir)]), []);
  } finally {
    await Deno.remove(join(dir, ".."), { recursive: true });
  }
});

Deno.test("listAgents() reports a folder that is a file as a problem", async () => {
  await withAgents({ "agents": "not a folder" }, async (dir) => {
    const path = join(dir, "agents");
    const { agents, problems } = await listAgents([homeSource(path)]);
    deepStrictEqual(agents, []);
    strictEqual(problems.length, 1);
    strictEqual(problems[0]?.path, path);
    strictEqual(problems[0]?.message.startsWith(`${path}: cannot read the agents folder: `), true);
  });
});

Deno.test("listAgentIds() lists valid ids of .md files, sorted, without loading them", async () => {
  await withAgents(
    { "b.md": "broken", "a.md": agent("A"), "c d.md": "", "x.txt": "" },
    async (dir) => {
      deepStrictEqual(await listAgentIds([homeSource(dir)]), ["a", "b"]);
    },
  );
});

Deno.test("loadAgent() gives the built-in default agent unless agents/default.md replaces it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const builtin = await loadAgent([homeSource(dir)], "default");
    strictEqual(builtin.path, BUILTIN_AGENT_PATH);
    deepStrictEqual(builtin.tools, [
      "read",
      "write",
      "edit",
      "grep",
      "find",
      "ls",
      "shell",
      "mcp:*",
    ]);
    strictEqual(builtin.model, undefined);
    await Deno.writeTextFile(join(dir, "default.md"), "---\ndescription: Mine.\n---\nMine.\n");
    strictEqual((await loadAgent([homeSource(dir)], "default")).description, "Mine.");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
