/**
 * `deno task mcp-servers`: installs the pinned MCP reference servers, the
 * MCP conformance suite and a published collection of Claude Code hook
 * scripts from npm into the git-ignored `vendor/mcp-servers/`, for the tests
 * and the benchmark (`deno task test` runs it first).
 * Idempotent and quick: it runs `npm install` only when an installed version
 * differs from its pin.
 *
 * @module
 */

import { fileURLToPath } from "node:url";

/** The folder the packages are installed into, relative to the repository root. */
export const MCP_SERVERS_DIR = "vendor/mcp-servers";

/** The packages and their exact versions. */
export const MCP_PACKAGES = {
  "@modelcontextprotocol/server-everything": "2026.8.31",
  "@modelcontextprotocol/server-filesystem": "2026.8.31",
  "@modelcontextprotocol/conformance": "0.1.16",
  // Claude Code hook scripts as their authors publish them (MIT), run verbatim
  // by tests/claude_hooks_published_test.ts.
  "claude-hooks-manager": "3.1.1",
} as const;

/** One of {@link MCP_PACKAGES}. */
export type McpPackage = keyof typeof MCP_PACKAGES;

const ROOT = new URL("../", import.meta.url);

/** The absolute folder of an installed package. */
export function packageDir(name: McpPackage): string {
  return fileURLToPath(new URL(`${MCP_SERVERS_DIR}/node_modules/${name}`, ROOT));
}

async function installedVersion(name: McpPackage): Promise<string | null> {
  try {
    const manifest: unknown = JSON.parse(
      await Deno.readTextFile(`${packageDir(name)}/package.json`),
    );
    const version = typeof manifest === "object" && manifest !== null && "version" in manifest
      ? manifest.version
      : null;
    return typeof version === "string" ? version : null;
  } catch {
    return null;
  }
}

/** Whether every package is installed at its pinned version. */
export async function mcpServersInstalled(): Promise<boolean> {
  const names = Object.keys(MCP_PACKAGES) as McpPackage[];
  const versions = await Promise.all(names.map(installedVersion));
  return names.every((name, index) => versions[index] === MCP_PACKAGES[name]);
}

/** Installs the packages unless they are installed already; true when it installed. */
export async function installMcpServers(): Promise<boolean> {
  if (await mcpServersInstalled()) return false;
  const dir = fileURLToPath(new URL(MCP_SERVERS_DIR, ROOT));
  await Deno.mkdir(dir, { recursive: true });
  const specs = Object.entries(MCP_PACKAGES).map(([name, version]) => `${name}@${version}`);
  // npm is npm.cmd on Windows, which only a shell runs.
  const npm = Deno.build.os === "windows" ? ["cmd", "/c", "npm"] : ["npm"];
  const status = await new Deno.Command(npm[0]!, {
    args: [
      ...npm.slice(1),
      "install",
      "--prefix",
      dir,
      "--no-audit",
      "--no-fund",
      "--no-update-notifier",
      "--loglevel=error",
      ...specs,
    ],
    stdin: "null",
    // npm's "added N packages" is not ours to print; its errors still reach stderr.
    stdout: "null",
  }).spawn().status;
  if (!status.success) throw new Error(`npm install of the MCP test servers failed (${dir})`);
  return true;
}

if (import.meta.main) {
  await installMcpServers();
}
