/**
 * A throw-away rienda installation per test: a temp `RIENDA_HOME` with a
 * default config and agent, a workspace, a separate `HOME`, and helpers to
 * write extensions and read session files. Dispose it with `await using`.
 *
 * Default config: provider `fake` (`openai_chat_completions` at the fake
 * provider's URL, `api_key: test-key`, model alias `m` with id `fake-model`),
 * `default_model: fake/m` and `environment_context: false`, so a system
 * prompt is exactly what a test wrote (the environment block has its own
 * tests). Default agent `coder`: description
 * `Answers briefly.`, tools `[shell]`, body `You answer briefly.`.
 *
 * @module
 */

import type { Protocol } from "./codec.ts";
import { parseJsonLines } from "./json.ts";
import {
  type RiendaOptions,
  type RiendaProcess,
  type RiendaResult,
  runCommand,
  runRienda,
  startRienda,
  startRiendaInTerminal,
  writeRiendaWrapper,
} from "./rienda.ts";

/** The system prompt of the default agent. */
export const DEFAULT_AGENT_BODY = "You answer briefly.";

/** What a test may change about its environment. */
export interface TestEnvOptions {
  /** The provider the default config points at; a closed port when absent. */
  readonly provider?: { readonly url: string };
  /** The protocol of the default config's `fake` provider. @default "openai_chat_completions" */
  readonly protocol?: Protocol;
  /** Write no `config.yaml` at all. @default false */
  readonly noConfig?: boolean;
  /** Write no default `coder` agent. @default false */
  readonly noAgent?: boolean;
  /**
   * Trust the workspace as `rienda trust` would (trust.json), so that its
   * files may run as hooks of config.yaml and home agents. @default false
   */
  readonly trustedWorkspace?: boolean;
}

/** Per-run options on top of the environment's. */
export interface RunOptions {
  /** Working directory. @default the environment's workdir */
  readonly cwd?: string;
  readonly stdin?: string;
  /** Standard input stays an open, silent pipe until the test writes to it or closes it. */
  readonly openStdin?: boolean;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly timeoutMs?: number;
}

/** A temp rienda installation and workspace. */
export interface TestEnv extends AsyncDisposable {
  /** The temp root holding everything below. */
  readonly root: string;
  /** `RIENDA_HOME`. */
  readonly home: string;
  /** `HOME` of the CLI (empty, outside `RIENDA_HOME`). */
  readonly userHome: string;
  /** The default workspace (real path). */
  readonly workdir: string;
  /** `home/config.yaml`. */
  readonly configPath: string;
  /** Runs the CLI to its end in the workspace. */
  run(args: readonly string[], options?: RunOptions): Promise<RiendaResult>;
  /** Starts the CLI in the workspace. */
  start(args: readonly string[], options?: RunOptions): Promise<RiendaProcess>;
  /** Starts the CLI in the workspace on a pseudo-terminal (see `startRiendaInTerminal`). */
  startInTerminal(args: readonly string[], options?: RunOptions): Promise<RiendaProcess>;
  /** Runs an executable (a shebang agent file) with the CLI's environment rules. */
  exec(command: string, args: readonly string[], options?: RunOptions): Promise<RiendaResult>;
  /** Writes a `rienda` wrapper into `root/bin` and returns a `PATH` with that dir first. */
  installWrapper(): Promise<string>;
  /** Replaces `config.yaml`; returns its path. */
  writeConfig(yaml: string): Promise<string>;
  /** Writes `agents/<id>.md` from a frontmatter (object or YAML text) and a body; returns its path. */
  writeAgent(
    id: string,
    frontmatter: Readonly<Record<string, unknown>> | string,
    body?: string,
  ): Promise<string>;
  /** Writes `agents/<id>.md` verbatim; returns its path. */
  writeAgentFile(id: string, text: string): Promise<string>;
  /** Writes `tools/<name>/index.js`; returns its path. */
  writeTool(name: string, source: string): Promise<string>;
  /** Writes `hooks/<name>/index.js`; returns its path. */
  writeHook(name: string, source: string): Promise<string>;
  /** Writes a file under `root` (parents created); returns its absolute path. */
  writeFile(relativePath: string, text: string, mode?: number): Promise<string>;
  /** Creates another directory under `root` (e.g. a second workspace); returns its real path. */
  makeDir(relativePath: string): Promise<string>;
  /** Every `*.jsonl` under `home/sessions`, sorted. */
  sessionFiles(): Promise<string[]>;
  /** The lines of a session file, by path or by session id. */
  readSession(pathOrId: string): Promise<Record<string, unknown>[]>;
}

/** The default `config.yaml` for a provider URL. */
export function defaultConfig(
  url: string,
  protocol: Protocol = "openai_chat_completions",
): string {
  return [
    "default_model: fake/m",
    "environment_context: false",
    "providers:",
    "  fake:",
    `    protocol: ${protocol}`,
    `    base_url: ${url}`,
    "    api_key: test-key",
    "    models:",
    "      m:",
    "        id: fake-model",
    "",
  ].join("\n");
}

/** The text of an agent file: frontmatter (object as one JSON value per key, or YAML) and body. */
export function agentText(
  frontmatter: Readonly<Record<string, unknown>> | string,
  body = DEFAULT_AGENT_BODY,
): string {
  const yaml = typeof frontmatter === "string"
    ? frontmatter.replace(/\n$/, "")
    : Object.entries(frontmatter).map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
      .join("\n");
  return `---\n${yaml}\n---\n${body}\n`;
}

/** Creates a temp rienda installation and workspace. */
export async function createTestEnv(options: TestEnvOptions = {}): Promise<TestEnv> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "rienda-test-" }));
  const home = `${root}/rienda-home`;
  const userHome = `${root}/user`;
  const workdir = `${root}/workspace`;
  const configPath = `${home}/config.yaml`;
  for (const dir of [home, userHome, workdir]) await Deno.mkdir(dir, { recursive: true });

  const write = async (path: string, text: string, mode?: number) => {
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(path, text, mode === undefined ? {} : { mode });
    if (mode !== undefined) await Deno.chmod(path, mode);
    return path;
  };
  const riendaOptions = (run: RunOptions = {}): RiendaOptions => ({
    cwd: run.cwd ?? workdir,
    home: userHome,
    riendaHome: home,
    ...(run.env === undefined ? {} : { env: run.env }),
    ...(run.stdin === undefined ? {} : { stdin: run.stdin }),
    ...(run.openStdin === undefined ? {} : { openStdin: run.openStdin }),
    ...(run.timeoutMs === undefined ? {} : { timeoutMs: run.timeoutMs }),
  });
  const sessionFiles = async () =>
    (await listFiles(`${home}/sessions`)).filter((path) => path.endsWith(".jsonl")).sort();

  const env: TestEnv = {
    root,
    home,
    userHome,
    workdir,
    configPath,
    run: (args, run) => runRienda(args, riendaOptions(run)),
    start: (args, run) => startRienda(args, riendaOptions(run)),
    startInTerminal: (args, run) => startRiendaInTerminal(args, riendaOptions(run)),
    exec: (command, args, run) => runCommand(command, args, riendaOptions(run)),
    async installWrapper() {
      await writeRiendaWrapper(`${root}/bin`);
      return `${root}/bin:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`;
    },
    writeConfig: (yaml) => write(configPath, yaml),
    writeAgent: (id, frontmatter, body) => write(agentPath(id), agentText(frontmatter, body)),
    writeAgentFile: (id, text) => write(agentPath(id), text),
    writeTool: (name, source) => write(`${home}/tools/${name}/index.js`, source),
    writeHook: (name, source) => write(`${home}/hooks/${name}/index.js`, source),
    writeFile: (relativePath, text, mode) => write(`${root}/${relativePath}`, text, mode),
    async makeDir(relativePath) {
      await Deno.mkdir(`${root}/${relativePath}`, { recursive: true });
      return await Deno.realPath(`${root}/${relativePath}`);
    },
    sessionFiles,
    async readSession(pathOrId) {
      const path = pathOrId.includes("/")
        ? pathOrId
        : (await sessionFiles()).find((file) => file.endsWith(`/${pathOrId}.jsonl`));
      if (path === undefined) throw new Error(`no session file for id ${pathOrId}`);
      return parseJsonLines(await Deno.readTextFile(path), path);
    },
    async [Symbol.asyncDispose]() {
      await Deno.remove(root, { recursive: true }).catch(() => {});
    },
  };
  function agentPath(id: string): string {
    return `${home}/agents/${id}.md`;
  }

  if (!options.noConfig) {
    const url = options.provider?.url ?? "http://127.0.0.1:1/v1";
    await env.writeConfig(defaultConfig(url, options.protocol));
  }
  if (options.trustedWorkspace) {
    const decision = { trusted: true, decided: "2026-01-01T00:00:00.000Z" };
    await write(`${home}/trust.json`, JSON.stringify({ [workdir]: decision }), 0o600);
  }
  if (!options.noAgent) {
    await env.writeAgent("coder", { description: "Answers briefly.", tools: ["shell"] });
  }
  return env;
}

/** Every file under a directory, recursively; none when it does not exist. */
async function listFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) files.push(...await listFiles(path));
      else files.push(path);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return files;
}
