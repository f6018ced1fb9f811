/**
 * The `mcp_servers:` section of `config.yaml` (docs/mcp.md, "Configuration"):
 * the checks a JSON Schema cannot word well, and the typed settings the MCP
 * client starts servers from.
 *
 * - A server is stdio (`command`, with `args`, `env`, `env_vars`, `cwd`) or
 *   remote (`url`, with `headers` and `token_env`); mixing the two is an error.
 * - Credential headers, `env` values of secret-named variables, the value
 *   of a secret-named flag in `args` (`--api-key X`, `--token=X`), and every
 *   header, `env` or `args` value that looks random are secrets
 *   ({@link serverSecrets}), except `env` and `args` values that are paths
 *   ({@link looksLikePath}: `/tmp/build2/server/index.js` is a script, not a
 *   key, and hiding it hid the path wherever it was printed); problems with `env`, `headers` or `token_env`
 *   never show the value.
 * - Server names follow the tool name rule and hold no `__`, which separates
 *   the server from the tool in the names the model sees (`github__create_issue`).
 *
 * @module
 */

import { ENV_NAME_REGEXP, HEADER_NAME_REGEXP, isHttpUrl } from "./config_checks.ts";
import { parseSandboxSetting, type SandboxSetting } from "../sandbox/sandbox_setting.ts";
import type { RawConfig, RawMcpServerConfig } from "./config_schema.ts";
import type { SchemaIssue } from "./schema_issues.ts";
import { isValidName, NAME_RULE } from "../base/names.ts";
import { looksRandom } from "../secrets/key_shapes.ts";
import { isCredentialHeader, isSecretVariable } from "../secrets/secret_names.ts";

/** The start-up and per-call timeout of a server that sets no `timeout_ms`. */
export const DEFAULT_MCP_TIMEOUT_MS = 60_000;

/** What every server has, whatever its transport. */
interface McpServerCommon {
  readonly name: string;
  /** `enabled: false` keeps the entry but never starts the server. */
  readonly enabled: boolean;
  /** Start-up (connect and tool list) and each call. */
  readonly timeoutMs: number;
  /** `tools.allow`: only these tools; null when absent (all tools). */
  readonly allow: readonly string[] | null;
  /** `tools.deny`: never these tools. */
  readonly deny: readonly string[];
}

/** A server started as a child process speaking MCP on stdin and stdout. */
export interface McpStdioServerSettings extends McpServerCommon {
  readonly kind: "stdio";
  readonly command: string;
  readonly args: readonly string[];
  /** Variables set for the server. */
  readonly env: Readonly<Record<string, string>>;
  /** Variables passed through from rienda's environment. */
  readonly envVars: readonly string[];
  /** The working directory as written (relative to the workspace); the workspace when absent. */
  readonly cwd?: string;
  /** `sandbox:`, what confines the server's process (docs/sandbox.md); absent: none. */
  readonly sandbox?: SandboxSetting;
}

/** A server reached over streamable HTTP (or, failing that, the older HTTP+SSE transport). */
export interface McpRemoteServerSettings extends McpServerCommon {
  readonly kind: "remote";
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The variable holding a bearer token sent as `Authorization: Bearer …`. */
  readonly tokenEnv?: string;
}

/** One configured MCP server. */
export type McpServerSettings = McpStdioServerSettings | McpRemoteServerSettings;

const STDIO_KEYS = ["args", "env", "env_vars", "cwd", "sandbox"] as const;
const REMOTE_KEYS = ["headers", "token_env"] as const;

/** Whether `name` may name an MCP server. */
export function isValidMcpServerName(name: string): boolean {
  return isValidName(name) && !name.includes("__");
}

/**
 * The secrets written in a server entry: credential headers, secret-named
 * `env` values, the values of secret flags in `args`, and every such value
 * that looks random (the caller remembers them, `app/known_secrets.ts`).
 */
export function serverSecrets(server: McpServerSettings): string[] {
  const found: string[] = [];
  if (server.kind === "remote") {
    for (const [name, value] of Object.entries(server.headers)) {
      if (isCredentialHeader(name) || looksRandom(value)) found.push(value);
    }
    return found;
  }
  for (const [name, value] of Object.entries(server.env)) {
    if (isSecretVariable(name) || looksUnnamedSecret(value)) found.push(value);
  }
  server.args.forEach((arg, index) => {
    const flag = SECRET_FLAG_REGEXP.exec(arg);
    if (flag?.[1] !== undefined) found.push(flag[1]);
    else if (flag !== null) found.push(server.args[index + 1] ?? "");
    else if (looksUnnamedSecret(arg)) found.push(arg);
  });
  return found;
}

/** Whether an `env` or `args` value under no secret name is one: random-looking, and no path. */
function looksUnnamedSecret(value: string): boolean {
  return !looksLikePath(value) && looksRandom(value);
}

/**
 * Whether `value` is a path rather than a token: absolute, home- or
 * dot-relative, a Windows drive path, or a relative path ending in a file
 * extension (`dist/index.js`). A base64 token may hold `/` too, but seldom
 * starts with one and never ends in `.js`.
 */
export function looksLikePath(value: string): boolean {
  return /^(?:\/|\.{1,2}[/\\]|~[/\\]|[A-Za-z]:[/\\])/.test(value) ||
    /[/\\][\w.-]*\.[A-Za-z]{1,5}$/.test(value);
}

/** A flag naming a secret, with its value after `=` when given: `--api-key`, `--token=…`. */
const SECRET_FLAG_REGEXP =
  /^--?[A-Za-z0-9-]*(?:token|key|secret|password|passwd|pwd|auth|credentials?)(?:=(.+))?$/i;

/** Whether the server's `tools.allow` and `tools.deny` let `tool` through. */
export function isToolAllowed(
  settings: Pick<McpServerSettings, "allow" | "deny">,
  tool: string,
): boolean {
  return (settings.allow === null || settings.allow.includes(tool)) &&
    !settings.deny.includes(tool);
}

/** Problems of `mcp_servers:` in a document that already matches the schema. */
export function checkMcpServers(raw: RawConfig): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  for (const [name, server] of Object.entries(raw.mcp_servers ?? {})) {
    issues.push(...checkServer(name, server ?? {}));
  }
  return issues;
}

function checkServer(name: string, server: RawMcpServerConfig): SchemaIssue[] {
  const at = ["mcp_servers", name];
  const issues: SchemaIssue[] = [];
  if (!isValidMcpServerName(name)) {
    issues.push({
      path: at,
      key: true,
      message: `invalid MCP server name ${
        JSON.stringify(name)
      } (expected ${NAME_RULE}, without "__")`,
    });
  }
  const stdio = server.command !== undefined;
  const remote = server.url !== undefined;
  if (stdio && remote) {
    issues.push({
      path: [...at, "url"],
      message: `a server has either a command (stdio) or a url (remote), not both`,
    });
  } else if (!stdio && !remote) {
    issues.push({
      path: at,
      message: `needs a command (a stdio server, e.g. "command: npx") ` +
        `or a url (a remote server, e.g. "url: https://mcp.example.com/mcp")`,
    });
  }
  const misplaced = stdio ? REMOTE_KEYS : remote ? STDIO_KEYS : [];
  for (const key of misplaced) {
    if (server[key] === undefined) continue;
    issues.push({
      path: [...at, key],
      key: true,
      message: stdio
        ? `only a remote server (url) takes ${key}`
        : `only a stdio server (command) takes ${key}`,
    });
  }
  if (server.url !== undefined && !isHttpUrl(server.url)) {
    issues.push({
      path: [...at, "url"],
      message: `must be an http or https URL such as https://mcp.example.com/mcp ` +
        `(found ${JSON.stringify(server.url)})`,
    });
  }
  if (server.sandbox !== undefined && server.sandbox !== null) {
    for (const problem of parseSandboxSetting(server.sandbox).problems) {
      issues.push({ path: [...at, "sandbox", ...problem.path], message: problem.message });
    }
  }
  for (const variable of Object.keys(server.env ?? {})) {
    if (ENV_NAME_REGEXP.test(variable)) continue;
    issues.push({
      path: [...at, "env", variable],
      key: true,
      message: `invalid environment variable name ${JSON.stringify(variable)}`,
    });
  }
  (server.env_vars ?? []).forEach((variable, index) => {
    if (ENV_NAME_REGEXP.test(variable)) return;
    issues.push({
      path: [...at, "env_vars", index],
      message: `invalid environment variable name ${JSON.stringify(variable)}`,
    });
  });
  if (server.token_env !== undefined && !ENV_NAME_REGEXP.test(server.token_env)) {
    issues.push({
      path: [...at, "token_env"],
      // The value is not shown: a token pasted here by mistake must not be printed.
      message: `must be the name of an environment variable such as GITHUB_TOKEN ` +
        `(the value is not shown, as it may be a token: put the token in a variable and its name here)`,
    });
  }
  for (const header of Object.keys(server.headers ?? {})) {
    if (!HEADER_NAME_REGEXP.test(header)) {
      issues.push({
        path: [...at, "headers", header],
        key: true,
        message: `invalid HTTP header name ${JSON.stringify(header)}`,
      });
    }
  }
  return issues;
}

/** The typed settings of every server, by name, once {@link checkMcpServers} found nothing. */
export function toMcpServers(raw: RawConfig): Record<string, McpServerSettings> {
  const servers: Record<string, McpServerSettings> = {};
  for (const [name, entry] of Object.entries(raw.mcp_servers ?? {})) {
    const server = entry ?? {};
    const common: McpServerCommon = {
      name,
      enabled: server.enabled ?? true,
      timeoutMs: server.timeout_ms ?? DEFAULT_MCP_TIMEOUT_MS,
      allow: server.tools?.allow === undefined ? null : [...server.tools.allow],
      deny: [...server.tools?.deny ?? []],
    };
    servers[name] = server.command !== undefined
      ? {
        ...common,
        kind: "stdio",
        command: server.command,
        args: [...server.args ?? []],
        env: { ...server.env },
        envVars: [...server.env_vars ?? []],
        ...(server.cwd === undefined ? {} : { cwd: server.cwd }),
        ...(server.sandbox === undefined || server.sandbox === null
          ? {}
          : { sandbox: parseSandboxSetting(server.sandbox).setting }),
      }
      : {
        ...common,
        kind: "remote",
        url: server.url ?? "",
        headers: { ...server.headers },
        ...(server.token_env === undefined ? {} : { tokenEnv: server.token_env }),
      };
  }
  return servers;
}
