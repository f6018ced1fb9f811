import { deepStrictEqual, equal, match, throws } from "node:assert/strict";
import { parseConfig } from "./config.ts";
import { DEFAULT_MCP_TIMEOUT_MS, looksLikePath } from "./mcp_servers.ts";

const FILE = "/h/.rienda/config.yaml";

Deno.test("mcp_servers: stdio and remote servers, defaults applied", () => {
  const config = parseConfig(
    [
      "mcp_servers:",
      "  github:",
      "    command: npx",
      "    args: [-y, '@modelcontextprotocol/server-github']",
      "    env: { GITHUB_API: 'https://api.github.com' }",
      "    env_vars: [GITHUB_TOKEN]",
      "    cwd: tools",
      "    tools: { deny: [delete_repo] }",
      "  remote:",
      "    url: https://mcp.example.com/mcp",
      "    headers: { X-Team: core }",
      "    token_env: EXAMPLE_TOKEN",
      "    timeout_ms: 5000",
      "    enabled: false",
      "    tools: { allow: [search] }",
      "  empty_section_ok:",
      "    command: node",
    ].join("\n"),
    FILE,
  );
  deepStrictEqual(config.mcpServers["github"], {
    name: "github",
    enabled: true,
    timeoutMs: DEFAULT_MCP_TIMEOUT_MS,
    allow: null,
    deny: ["delete_repo"],
    kind: "stdio",
    command: "npx",
    args: ["-y", "@modelcontextprotocol/server-github"],
    env: { GITHUB_API: "https://api.github.com" },
    envVars: ["GITHUB_TOKEN"],
    cwd: "tools",
  });
  deepStrictEqual(config.mcpServers["remote"], {
    name: "remote",
    enabled: false,
    timeoutMs: 5000,
    allow: ["search"],
    deny: [],
    kind: "remote",
    url: "https://mcp.example.com/mcp",
    headers: { "X-Team": "core" },
    tokenEnv: "EXAMPLE_TOKEN",
  });
  deepStrictEqual(parseConfig("mcp_servers:\n", FILE).mcpServers, {});
});

/** Mistakes: each is one error line naming the file and the field. */
const MISTAKES: { claim: string; servers: string; expect: RegExp }[] = [
  {
    claim: "an unknown key",
    servers: "  gh:\n    comand: npx\n",
    expect:
      /^\/h\/\.rienda\/config\.yaml: mcp_servers\.gh\.comand: unknown key \(expected one of: command, /,
  },
  {
    claim: "neither command nor url",
    servers: "  gh:\n    args: [x]\n",
    expect: /: mcp_servers\.gh: needs a command \(a stdio server, e\.g\. "command: npx"\) or a url/,
  },
  {
    claim: "both command and url",
    servers: "  gh:\n    command: npx\n    url: https://x.example/mcp\n",
    expect: /: mcp_servers\.gh\.url: a server has either a command \(stdio\) or a url \(remote\)/,
  },
  {
    claim: "a stdio key on a remote server",
    servers: "  gh:\n    url: https://x.example/mcp\n    args: [x]\n",
    expect: /: mcp_servers\.gh\.args: only a stdio server \(command\) takes args/,
  },
  {
    claim: "a remote key on a stdio server",
    servers: "  gh:\n    command: npx\n    token_env: T\n",
    expect: /: mcp_servers\.gh\.token_env: only a remote server \(url\) takes token_env/,
  },
  {
    claim: "a timeout that is not an integer",
    servers: "  gh:\n    command: npx\n    timeout_ms: soon\n",
    expect: /: mcp_servers\.gh\.timeout_ms: must be an integer \(found "soon"\)/,
  },
  {
    claim: "a timeout of zero",
    servers: "  gh:\n    command: npx\n    timeout_ms: 0\n",
    expect: /: mcp_servers\.gh\.timeout_ms: /,
  },
  {
    claim: "a server name holding __",
    servers: "  my__gh:\n    command: npx\n",
    expect:
      /: mcp_servers\.my__gh: invalid MCP server name "my__gh" \(expected 1 to 64 letters, digits, "_" or "-", without "__"\)/,
  },
  {
    claim: "a url that is not http",
    servers: "  gh:\n    url: ftp://x.example\n",
    expect: /: mcp_servers\.gh\.url: must be an http or https URL/,
  },
  {
    claim: "an invalid token_env",
    servers: "  gh:\n    url: https://x.example/mcp\n    token_env: my token\n",
    expect: /: mcp_servers\.gh\.token_env: must be the name of an environment variable/,
  },
  {
    claim: "an invalid env name",
    servers: "  gh:\n    command: npx\n    env: { 'A B': x }\n",
    expect: /: mcp_servers\.gh\.env\["A B"\]: invalid environment variable name "A B"/,
  },
  {
    claim: "an invalid env_vars entry",
    servers: "  gh:\n    command: npx\n    env_vars: [OK, 1BAD]\n",
    expect: /: mcp_servers\.gh\.env_vars\[1\]: invalid environment variable name "1BAD"/,
  },
  {
    claim: "an env value that is not a string",
    servers: "  gh:\n    command: npx\n    env: { A: [1] }\n",
    expect: /: mcp_servers\.gh\.env\.A: must be a string/,
  },
  {
    claim: "an unknown key under tools",
    servers: "  gh:\n    command: npx\n    tools: { only: [x] }\n",
    expect: /: mcp_servers\.gh\.tools\.only: unknown key \(expected one of: allow, deny\)/,
  },
];

for (const { claim, servers, expect } of MISTAKES) {
  Deno.test(`mcp_servers: ${claim} is an error naming the field`, () => {
    throws(() => parseConfig(`mcp_servers:\n${servers}`, FILE), (error: Error) => {
      match(error.message, expect);
      return true;
    });
  });
}

Deno.test("mcp_servers: problems with env, headers or token_env never show the value", () => {
  // A number: the one kind of wrong value an error would otherwise show as it is.
  const secret = "123456789012345";
  for (
    const servers of [
      `  gh:\n    url: https://x.example/mcp\n    token_env: ${secret}\n`,
      `  gh:\n    url: https://x.example/mcp\n    token_env: "ghp-${secret}"\n`,
      `  gh:\n    command: npx\n    env: { A: ${secret} }\n`,
      `  gh:\n    url: https://x.example/mcp\n    headers: { Authorization: ${secret} }\n`,
    ]
  ) {
    throws(() => parseConfig(`mcp_servers:\n${servers}`, FILE), (error: Error) => {
      match(error.message, /mcp_servers\.gh\./);
      equal(error.message.includes(secret), false, error.message);
      return true;
    });
  }
});

Deno.test("looksLikePath(): scripts and folders are paths, tokens with a slash are not", () => {
  for (const path of ["/tmp/ci1/x.js", "./a1/b", "../x", "~/k", "C:\\x", "dist2/index.js"]) {
    equal(looksLikePath(path), true, path);
  }
  for (const token of ["Wq4Er7Ty1Ui9Op3As6Df2Gh8", "Wq4Er7/Ty1Ui9+Op3As6Df2Gh8=", "ab/cd"]) {
    equal(looksLikePath(token), false, token);
  }
});
