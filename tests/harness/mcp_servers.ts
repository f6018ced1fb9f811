/**
 * The MCP reference servers from npm (`deno task mcp-servers` installs them
 * into `vendor/mcp-servers/`), as `config.yaml` entries and as HTTP servers
 * on 127.0.0.1 for the remote transports.
 *
 * @module
 */

import { mcpServersInstalled, packageDir } from "../../scripts/mcp_servers.ts";
import { defaultConfig } from "./env.ts";

/** A `mcp_servers.<name>` entry, written as JSON (which is YAML). */
export type McpServerEntry = Readonly<Record<string, unknown>>;

/** Fails with the fix when the servers are not installed. */
async function requireInstalled(): Promise<void> {
  if (!(await mcpServersInstalled())) {
    throw new Error("the MCP test servers are not installed: run deno task mcp-servers");
  }
}

/** The entry file of server-everything. */
export async function everythingEntry(): Promise<string> {
  await requireInstalled();
  return `${packageDir("@modelcontextprotocol/server-everything")}/dist/index.js`;
}

/** server-everything over stdio, optionally started through `sh` writing its pid to `pidFile`. */
export async function everythingStdio(
  options: { pidFile?: string; extra?: McpServerEntry } = {},
): Promise<McpServerEntry> {
  const entry = await everythingEntry();
  const base = options.pidFile === undefined ? { command: "node", args: [entry, "stdio"] } : {
    command: "sh",
    args: ["-c", `echo $$ > '${options.pidFile}'; exec node '${entry}' stdio`],
  };
  return { ...base, ...options.extra };
}

/** server-filesystem allowed to touch `dir` only. */
export async function filesystemStdio(dir: string): Promise<McpServerEntry> {
  await requireInstalled();
  const entry = `${packageDir("@modelcontextprotocol/server-filesystem")}/dist/index.js`;
  return { command: "node", args: [entry, dir] };
}

/** The default test config plus `mcp_servers:`. */
export function configWithMcp(
  providerUrl: string,
  servers: Readonly<Record<string, McpServerEntry>>,
): string {
  return `${defaultConfig(providerUrl)}mcp_servers: ${JSON.stringify(servers)}\n`;
}

/** server-everything listening on 127.0.0.1 in `streamableHttp` or `sse` mode. */
export interface HttpEverything extends AsyncDisposable {
  /** The MCP endpoint: `/mcp`, or `/sse` for the SSE mode. */
  readonly url: string;
}

/** Starts server-everything over HTTP on a free port and waits until it accepts connections. */
export async function startHttpEverything(mode: "streamableHttp" | "sse"): Promise<HttpEverything> {
  const entry = await everythingEntry();
  const port = freePort();
  const child = new Deno.Command("node", {
    args: [entry, mode],
    env: { PORT: String(port) },
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    await pollUntil(async () => {
      try {
        (await Deno.connect({ hostname: "127.0.0.1", port })).close();
        return true;
      } catch {
        return false;
      }
    }, `server-everything ${mode} on port ${port}`);
  } catch (error) {
    child.kill("SIGKILL");
    await child.status;
    throw error;
  }
  return {
    url: `http://127.0.0.1:${port}/${mode === "sse" ? "sse" : "mcp"}`,
    async [Symbol.asyncDispose]() {
      try {
        child.kill("SIGKILL");
      } catch {
        // already gone
      }
      await child.status;
    },
  };
}

/** A forwarding proxy on 127.0.0.1 that records the headers of every request. */
export interface RecordingProxy extends AsyncDisposable {
  /** `target`'s URL with the proxy's origin. */
  readonly url: string;
  /** The `authorization` header of each request, in order (null when absent). */
  readonly authorizations: readonly (string | null)[];
}

/** Starts a proxy in front of `target` (an http URL on 127.0.0.1). */
export function startRecordingProxy(target: string): RecordingProxy {
  const upstream = new URL(target);
  const authorizations: (string | null)[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    authorizations.push(request.headers.get("authorization"));
    const url = new URL(request.url);
    url.host = upstream.host;
    return fetch(url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
    });
  });
  const proxied = new URL(target);
  proxied.port = String(server.addr.port);
  return {
    url: proxied.href,
    authorizations,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

/** Whether a process with this pid exists (and is not a zombie). */
export async function processAlive(pid: number): Promise<boolean> {
  try {
    const status = await Deno.readTextFile(`/proc/${pid}/status`);
    return !/^State:\s+Z/m.test(status);
  } catch {
    return false;
  }
}

/**
 * Whether the process is gone within 2 s: a process killed just now (SIGKILL
 * at rienda's exit) may still be scheduled once before the kernel removes it.
 */
export async function processGone(pid: number): Promise<boolean> {
  const deadline = Date.now() + 2_000;
  while (await processAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/** Reads the pid a server wrapper wrote, once it is there. */
export async function readPid(pidFile: string): Promise<number> {
  let pid = NaN;
  await pollUntil(async () => {
    pid = Number((await Deno.readTextFile(pidFile).catch(() => "")).trim());
    return Number.isInteger(pid) && pid > 0;
  }, `a pid in ${pidFile}`);
  return pid;
}

/** Polls `ready` every 50 ms; fails after 15 s naming `what`. */
export async function pollUntil(ready: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr;
  listener.close();
  return port;
}
