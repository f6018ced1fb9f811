/**
 * The editor support of the rienda home: `rienda.d.ts`, the types of `ctx`,
 * tools and hooks (printed by `rienda types`), and the `jsconfig.json` that
 * `rienda init` writes beside it, so an editor completes `ctx.` in
 * `tools/<name>/index.js` and `hooks/<name>/index.js` and type-checks a file
 * that starts with `// @ts-check`. `tests/types_test.ts` type-checks the
 * examples of docs/extending.md against it.
 *
 * @module
 */

import { VERSION } from "../base/version.ts";

/** The text of `rienda.d.ts`. */
export const RIENDA_DTS = `// Types of rienda ${VERSION}'s extension API: ctx, tools and hooks.
// Reference: docs/extending.md of rienda. Regenerate with: rienda types > rienda.d.ts
//
// In tools/<name>/index.js:   // @ts-check
//                             /** @type {Rienda.Tool} */
//                             module.exports = { description, parameters, execute(ctx, args) {…} };
// In hooks/<name>/index.js:   /** @type {Rienda.Hook} */
//                             module.exports = { beforeToolExecute(ctx, call) {…} };
// As an ES module:            /** @type {Rienda.Tool} */ export default { … };
//                             /** @type {Rienda.BeforeToolExecute} */
//                             export const beforeToolExecute = (ctx, call) => {…};

declare namespace Rienda {
  /** A value JSON can hold: what arguments, payloads and ctx.config are made of. */
  type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

  /** An entry of ctx.file.list. */
  interface FileEntry {
    /** The entry's own name. */
    name: string;
    /** Its path relative to the workspace, with "/" separators. */
    path: string;
    /** True for a directory (symbolic links are listed as files, never followed). */
    isDir: boolean;
  }

  /** ctx.file: relative paths resolve against ctx.workdir; absolute paths are allowed. */
  interface FileApi {
    /** The file's text (invalid UTF-8 replaced). Throws for a missing file, a directory, or more than 32 MiB (RangeError). */
    read(path: string, options?: { encoding?: "utf8" | "utf-8" }): string;
    /** Writes text, creating parent directories; truncates unless append is true. */
    write(path: string, data: string, options?: { append?: boolean }): void;
    /** Whether the path exists, file or directory. */
    exists(path: string): boolean;
    /** The entries under a directory ("." by default), sorted by path; at most 100,000. */
    list(path?: string, options?: { recursive?: boolean; respectIgnoreFiles?: boolean }): FileEntry[];
  }

  /** ctx.env: read-only. */
  interface EnvApi {
    /** The variable's value, or null when it is unset. */
    get(name: string): string | null;
  }

  /** Options of ctx.http.fetch. */
  interface FetchOptions {
    /** GET by default. */
    method?: string;
    headers?: Record<string, string>;
    /** Sent as-is. */
    body?: string;
    /** No timeout by default; at most 2147483647. */
    timeout_ms?: number;
  }

  /** A response of ctx.http.fetch, whatever its status. */
  interface FetchResponse {
    status: number;
    /** Header names lower-cased. */
    headers: Record<string, string>;
    /** The body as UTF-8 text, cut at 256 KiB on a character boundary. */
    body: string;
  }

  /** ctx.http. */
  interface HttpApi {
    /** Sends one request, following redirects (credential headers are not sent to another origin). */
    fetch(url: string, options?: FetchOptions): FetchResponse;
  }

  /** Options of ctx.system.exec. */
  interface ExecOptions {
    /** Working directory, relative to the workspace; the workspace by default. */
    cwd?: string;
    /** Variables added to rienda's environment. */
    env?: Record<string, string>;
    /** Kills the command's whole process group after this long (code -1). */
    timeout_ms?: number;
    /** Text written to the command's stdin; stdin is empty (/dev/null) without it. */
    stdin?: string;
    /** true: the output is not streamed to the front end (it is still returned). */
    quiet?: boolean;
  }

  /** How a command ended. */
  interface ExecResult {
    /** The exit code; -1 when a signal, the timeout or an interrupt killed it. */
    code: number;
    /** At most 1 MiB of each is kept. */
    stdout: string;
    stderr: string;
  }

  /** ctx.system. */
  interface SystemApi {
    /**
     * Runs a shell string with sh -c, or a program and its arguments without a shell
     * (["git", "status"]), in the workspace.
     */
    exec(command: string | [string, ...string[]], options?: ExecOptions): ExecResult;
    /** The absolute path of an executable on PATH, or null. */
    which(name: string): string | null;
  }

  /** ctx.cache and ctx.store: text by name, in a namespace of the extension's own (shared: the area of every extension granted it). */
  interface KeyValueApi {
    /** The text, or null when absent (or expired). */
    get(name: string): string | null;
    has(name: string): boolean;
    /** Whether a live entry was removed. */
    del(name: string): boolean;
  }

  /** ctx.cache: entries may expire. */
  interface CacheArea extends KeyValueApi {
    /** Stores text (at most 1 MiB; 16 MiB and 10000 entries per area); ttl_seconds (positive) makes it expire. */
    set(name: string, text: string, ttl_seconds?: number): void;
  }

  /** ctx.store: entries never expire. */
  interface StoreArea extends KeyValueApi {
    /** Stores text (at most 1 MiB; 16 MiB and 10000 entries per area). */
    set(name: string, text: string): void;
  }

  /** ctx.cache: the extension's own entries, and the shared area (capabilities.shared). */
  interface CacheApi extends CacheArea {
    readonly shared: CacheArea;
  }

  /** ctx.store: the extension's own entries, and the shared area (capabilities.shared). */
  interface StoreApi extends StoreArea {
    readonly shared: StoreArea;
  }

  /** A question of ctx.confirm, or a notice of ctx.notify. */
  interface Notice {
    title: string;
    body: string;
  }

  /** The context every tool and hook invocation receives. */
  interface Ctx {
    /** The absolute workspace directory, the base of every relative path. */
    readonly workdir: string;
    readonly session: {
      readonly id: string;
      readonly agentId: string;
      readonly modelId: string;
      readonly workdir: string;
    };
    /** The running agent: its frontmatter, name and body (frozen). */
    readonly agent: {
      readonly name: string;
      readonly description?: string;
      readonly model?: string;
      /** The names of its tools: entries, whichever form they take. */
      readonly tools: readonly string[];
      /** The names of its hooks: entries, whichever form they take. */
      readonly hooks: readonly string[];
      /** Per-agent settings (the frontmatter's config:). */
      readonly config: { readonly [key: string]: Json };
      readonly systemPrompt: string;
      readonly [key: string]: unknown;
    };
    /** The whole config.yaml, frozen, its keys masked (sk-…1234); settings for extensions under ctx.config.config.<name>. */
    readonly config: { readonly [key: string]: Json };
    readonly file: FileApi;
    readonly env: EnvApi;
    readonly http: HttpApi;
    readonly system: SystemApi;
    readonly cache: CacheApi;
    readonly store: StoreApi;
    /** Streams text to the front end (a newline is added when missing). */
    log(text: string): void;
    /** Waits ms milliseconds (0 to 2147483647), or less when the run is interrupted. */
    sleep(ms: number): void;
    /** Asks a yes/no question; true with -y, false when nobody can answer. */
    confirm(question: Notice): boolean;
    /** Shows a notice without waiting. */
    notify(notice: Notice): void;
  }

  /** What an extension may reach through ctx (omitted categories grant nothing). */
  interface Capabilities {
    /** Paths relative to the workspace, "~" for the home, or absolute. */
    file?: { read?: string[]; write?: string[] };
    /** Host patterns: "api.github.com", "*.example.com", "*", with an optional ":port". */
    http?: string[];
    /** true: shell strings and any program; a list: only those programs, in the argv form. */
    exec?: boolean | string[];
    /** Variable names ctx.env.get may read. */
    env?: string[];
    /** true: ctx.store.shared and ctx.cache.shared, the area every extension granted it shares. */
    shared?: boolean;
  }

  /** What execute returns: text, or text marked as an error. */
  type ToolResult = string | { text: string; isError?: boolean };

  /** A tool module (tools/<name>/index.js). */
  interface Tool<Args = { [key: string]: Json }> {
    /** What the tool does and when to use it, shown to the model. */
    description: string;
    /** A JSON Schema of "type": "object" for the arguments. */
    parameters: { type: "object"; [keyword: string]: unknown };
    /** What the tool may reach; full access when absent (unless config.yaml requires it). */
    capabilities?: Capabilities;
    execute(ctx: Ctx, args: Args): ToolResult | Promise<ToolResult>;
    /** Helpers may be exported beside the required fields. */
    [helper: string]: unknown;
  }

  /** A tool call as hooks see it. */
  interface ToolCall {
    id: string;
    name: string;
    arguments: { [key: string]: Json };
  }

  /** A tool's result as hooks see it. */
  interface ToolCallResult {
    text: string;
    isError: boolean;
  }

  /** What a hook point may return; undefined or null is "no opinion". */
  type Opinion<T> = T | undefined | null | void;

  /** The payload of beforeRun. */
  interface RunStart {
    sessionId: string;
    agentId: string;
    modelId: string;
  }

  /** The payload of beforePrompt: the user's message. */
  interface Prompt {
    text: string;
  }

  /** The payload of afterRun. */
  interface RunEnd {
    reason: "end_turn" | "interrupted" | "error";
  }

  /** The payload of beforeModelRequest (messages is a read-only snapshot). */
  interface ModelRequest {
    system: string;
    model: string;
    messages: { role: "user" | "assistant"; text: string }[];
  }

  /** The payload of afterModelResponse (toolCalls is read-only). */
  interface ModelResponse {
    text: string;
    thinking: string;
    toolCalls: ToolCall[];
  }

  /** beforeRun: once, at the start of a run. */
  type BeforeRun = (ctx: Ctx, run: RunStart) => void | Promise<void>;
  /** What beforePrompt may return. */
  type PromptVerdict = Opinion<{ allow?: boolean; reason?: string; text?: string; context?: string }>;
  /** beforePrompt: allow false refuses the message; text rewrites it; context is read with it. */
  type BeforePrompt = (ctx: Ctx, prompt: Prompt) => PromptVerdict | Promise<PromptVerdict>;
  /** afterRun: once, when the run ends, for any reason. */
  type AfterRun = (ctx: Ctx, event: RunEnd) => void | Promise<void>;
  /** beforeModelRequest: system replaces the prompt for this turn only. */
  type BeforeModelRequest = (
    ctx: Ctx,
    request: ModelRequest,
  ) => Opinion<{ system?: string }> | Promise<Opinion<{ system?: string }>>;
  /** afterModelResponse: rewrites the answer before it is printed and saved. */
  type AfterModelResponse = (
    ctx: Ctx,
    response: ModelResponse,
  ) =>
    | Opinion<{ text?: string; thinking?: string }>
    | Promise<Opinion<{ text?: string; thinking?: string }>>;
  /** What beforeToolExecute may return. */
  type ToolVerdict = Opinion<{ allow?: boolean; reason?: string; arguments?: { [key: string]: Json } }>;
  /** beforeToolExecute: allow false refuses the call; arguments replaces them. */
  type BeforeToolExecute = (ctx: Ctx, call: ToolCall) => ToolVerdict | Promise<ToolVerdict>;
  /** afterToolExecute: rewrites the result the model reads. */
  type AfterToolExecute = (
    ctx: Ctx,
    call: ToolCall,
    result: ToolCallResult,
  ) => Opinion<{ text?: string; isError?: boolean }> | Promise<Opinion<{ text?: string; isError?: boolean }>>;

  /** A hook module (hooks/<name>/index.js): any subset of the seven points. */
  interface Hook {
    /** What the hook may reach; full access when absent (unless config.yaml requires it). */
    capabilities?: Capabilities;
    /** true: a guard; every failure to give a verdict is a refusal (an agent may override it). */
    failClosed?: boolean;
    beforeRun?: BeforeRun;
    beforePrompt?: BeforePrompt;
    afterRun?: AfterRun;
    beforeModelRequest?: BeforeModelRequest;
    afterModelResponse?: AfterModelResponse;
    beforeToolExecute?: BeforeToolExecute;
    afterToolExecute?: AfterToolExecute;
  }
}

/** The CommonJS module of an extension (module.exports = …). */
declare var module: { exports: unknown };
declare var exports: unknown;
`;

/** The text of `jsconfig.json`: the home's JavaScript with `rienda.d.ts`, no DOM or Node types. */
export const JSCONFIG_JSON = `${
  JSON.stringify(
    {
      compilerOptions: {
        target: "es2023",
        lib: ["es2023"],
        module: "commonjs",
        checkJs: false,
        strict: true,
        types: [],
      },
      include: ["rienda.d.ts", "tools/*/index.js", "hooks/*/index.js"],
    },
    null,
    2,
  )
}\n`;
