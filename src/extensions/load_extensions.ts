/**
 * User JavaScript tools and hooks, hosted in QuickJS (docs/extensions.md,
 * "Extension hosting"; reference: rienda-tools.md, rienda-hooks.md). This is
 * the folder's entry point for the app.
 *
 * - {@link loadAgentExtensions}: an agent's tools (user tools replace
 *   built-ins of the same name, with a diagnostic) and its JavaScript hooks;
 *   a declared tool or hook that is unknown or broken fails before any request.
 *   Only declared extensions are loaded, and a run reports diagnostics about
 *   those only (warnings, built-ins replaced): the others are not its concern.
 * - {@link loadExtensionCatalog}: every tool and hook of the home, checked
 *   (tools' `parameters` schemas compiled too), for `rienda tools`,
 *   `rienda hooks` and `rienda doctor`.
 * - {@link loadToolByName}, {@link loadHookByName}: one extension, for
 *   `rienda tools test` and `rienda hooks test`.
 * - The engine (a QuickJS worker) starts only when an agent declares a user
 *   extension; otherwise nothing but a directory listing happens. A run's
 *   hooks are read from their modules (never from the exports cache), so an
 *   agent with hooks starts the engine while it loads; one with user tools
 *   only starts it at the first call.
 * - Diagnostics read `tool "<name>": <problem>` / `hook "<name>": <problem>`.
 *
 * @module
 */

import type { Tool } from "../tools/tool.ts";
import { compileToolSchema } from "../tools/tool_schema.ts";
import {
  discoverExtensions,
  type ExtensionKind,
  type ExtensionSource,
  findExtension,
} from "./discovery.ts";
import type { ExtensionHost } from "./host.ts";
import {
  type ExportsCacheUse,
  type LoadedHook,
  type LoadedTool,
  loadExtensionModule,
  type ModuleLoad,
} from "./load_module.ts";
import type { ExtensionRunContext } from "./run_context.ts";
import { createUserTool } from "./user_tool.ts";

/** A declared tool or hook is unknown or broken; the message names the agent file and the fix. */
export class ExtensionLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ExtensionLoadError";
  }
}

/** Where extensions live and what checking them may use. */
export interface ExtensionDirs {
  readonly host: ExtensionHost;
  /** `$RIENDA_HOME/tools`. */
  readonly toolsDir: string;
  /** `$RIENDA_HOME/hooks`. */
  readonly hooksDir: string;
  /** The names of the built-in tools (`http`, `shell`). */
  readonly builtinToolNames: readonly string[];
  /** Where modules' exports are remembered (`exports_cache.ts`); none when absent. */
  readonly exportsCacheDir?: string;
  readonly signal: AbortSignal;
}

/** Every extension of the home, checked. */
export interface ExtensionCatalog {
  /** Loaded user tools, sorted by name. */
  readonly tools: readonly LoadedTool[];
  /** Loaded user hooks, sorted by name. */
  readonly hooks: readonly LoadedHook[];
  /** Broken extensions, warnings and built-ins replaced by user tools, in name order. */
  readonly diagnostics: readonly string[];
  /** The diagnostics of broken extensions only (not warnings): what a listing fails on. */
  readonly problems: readonly string[];
}

interface Checked {
  readonly loaded: Map<string, LoadedTool | LoadedHook>;
  readonly problems: Map<string, string>;
  readonly diagnostics: string[];
}

/** Why a loaded tool's `parameters` schema does not compile, or null when it does. */
async function schemaProblem(extension: LoadedTool | LoadedHook): Promise<string | null> {
  if (extension.kind !== "tool") return null;
  const schema = await compileToolSchema(extension.parameters);
  return "problem" in schema
    ? `tool "${extension.name}": the "parameters" schema is invalid: ${schema.problem}`
    : null;
}

/** The exports cache of `dirs`: read by runs and the test commands, refreshed by the listings. */
function cacheUse(dirs: ExtensionDirs, read: boolean): ExportsCacheUse | undefined {
  return dirs.exportsCacheDir === undefined ? undefined : { dir: dirs.exportsCacheDir, read };
}

/**
 * Loads each extension; `compileSchemas` also compiles tools' schemas, which
 * the listings do (a run finds a bad schema at the first call, without
 * loading the validator before it is needed). The listings read every module
 * itself, so they show what it exports, never what a cache says.
 */
async function check(
  dirs: ExtensionDirs,
  found: readonly ExtensionSource[],
  compileSchemas = false,
): Promise<Checked> {
  const loaded = new Map<string, LoadedTool | LoadedHook>();
  const problems = new Map<string, string>();
  const diagnostics: string[] = [];
  for (const extension of found) {
    const loading = await loadExtensionModule(
      dirs.host,
      extension,
      dirs.signal,
      cacheUse(dirs, !compileSchemas),
    );
    const problem = loading.ok && compileSchemas ? await schemaProblem(loading.extension) : null;
    const result: ModuleLoad = problem === null ? loading : { ok: false, problem };
    if (result.ok) {
      loaded.set(extension.name, result.extension);
      diagnostics.push(...result.warnings);
      if (extension.kind === "tool" && dirs.builtinToolNames.includes(extension.name)) {
        diagnostics.push(`tool "${extension.name}": replaces the built-in tool of the same name`);
      }
    } else {
      problems.set(extension.name, result.problem);
      diagnostics.push(result.problem);
    }
  }
  return { loaded, problems, diagnostics };
}

function isTool(value: LoadedTool | LoadedHook | undefined): value is LoadedTool {
  return value?.kind === "tool";
}

function isHook(value: LoadedTool | LoadedHook | undefined): value is LoadedHook {
  return value?.kind === "hook";
}

/**
 * Discovers and checks every tool and hook of the home; `kinds` limits it to
 * tools or hooks (the other list is then empty).
 */
export async function loadExtensionCatalog(
  dirs: ExtensionDirs,
  kinds: readonly ExtensionKind[] = ["tool", "hook"],
): Promise<ExtensionCatalog> {
  const none = { found: [], diagnostics: [] };
  const [tools, hooks] = await Promise.all([
    kinds.includes("tool") ? discoverExtensions("tool", dirs.toolsDir) : none,
    kinds.includes("hook") ? discoverExtensions("hook", dirs.hooksDir) : none,
  ]);
  const checkedTools = await check(dirs, tools.found, true);
  const checkedHooks = await check(dirs, hooks.found);
  return {
    tools: [...checkedTools.loaded.values()].filter(isTool),
    hooks: [...checkedHooks.loaded.values()].filter(isHook),
    diagnostics: [
      ...tools.diagnostics,
      ...checkedTools.diagnostics,
      ...hooks.diagnostics,
      ...checkedHooks.diagnostics,
    ],
    problems: [
      ...tools.diagnostics,
      ...checkedTools.problems.values(),
      ...hooks.diagnostics,
      ...checkedHooks.problems.values(),
    ],
  };
}

/** What an agent declares, and the run its extensions serve. */
export interface AgentExtensionRequest extends ExtensionDirs {
  /** The agent file, named in errors. */
  readonly agentPath: string;
  /** `tools:` of the agent, in order. */
  readonly tools: readonly string[];
  /** The JavaScript hooks of the run (`config.yaml`'s and the agent's), in order. */
  readonly hooks: readonly string[];
  /** The file line of each name, keyed `tools:NAME` and `hooks:NAME`, where known. */
  readonly lines?: ReadonlyMap<string, number>;
  /** Where a hook is declared when not in the agent file (`/h/config.yaml: hooks[0]`), by name. */
  readonly hookOrigins?: ReadonlyMap<string, string>;
  /** The built-in tools, replaced by user tools of the same name. */
  readonly builtins: readonly Tool[];
  readonly context: ExtensionRunContext;
}

/** The tools and hooks of one run. */
export interface AgentExtensions {
  /** The agent's tools in declared order: user tools and the built-ins not replaced. */
  readonly tools: readonly Tool[];
  /** The declared JavaScript hooks, loaded and checked, by name (no entry's settings applied). */
  readonly hooks: ReadonlyMap<string, LoadedHook>;
  /** To report once at the start of the run. */
  readonly diagnostics: readonly string[];
}

function available(names: Iterable<string>): string {
  const sorted = [...new Set(names)].sort();
  return sorted.length === 0 ? "none" : sorted.join(", ");
}

/** Finds each declared extension of `kind`; a discovery problem of a declared name fails. */
async function findDeclared(
  kind: "tool" | "hook",
  dir: string,
  names: readonly string[],
  agentPath: string,
): Promise<Map<string, ExtensionSource>> {
  const found = new Map<string, ExtensionSource>();
  for (const name of names) {
    const source = await findExtension(kind, { dir, name });
    if (typeof source === "string") {
      throw new ExtensionLoadError(`${agentPath}: ${kind}s: ${source}`);
    }
    if (source !== null) found.set(name, source);
  }
  return found;
}

/**
 * Resolves an agent's tools and hooks (see the module doc). Diagnostics are
 * those of the declared extensions only (warnings, built-ins replaced); the
 * whole home is checked by {@link loadExtensionCatalog}.
 *
 * @throws {ExtensionLoadError} when a declared tool or hook is unknown or broken
 */
export async function loadAgentExtensions(
  request: AgentExtensionRequest,
): Promise<AgentExtensions> {
  const { agentPath } = request;
  const builtins = new Map(request.builtins.map((tool) => [tool.name, tool]));
  const userTools = await findDeclared("tool", request.toolsDir, request.tools, agentPath);
  const builtinsUsed = new Map<string, Tool>();
  for (const name of request.tools) {
    const builtin = builtins.get(name);
    if (builtin !== undefined && !userTools.has(name)) builtinsUsed.set(name, builtin);
  }
  const unknownTools = request.tools.filter((name) => !userTools.has(name) && !builtins.has(name));
  if (unknownTools.length > 0) {
    const discovered = await discoverExtensions("tool", request.toolsDir);
    const names = available([...builtins.keys(), ...discovered.found.map((tool) => tool.name)]);
    throw unknownError(request, "tool", unknownTools, names);
  }
  const userHooks = await findDeclared("hook", request.hooksDir, request.hooks, agentPath);
  const unknownHooks = request.hooks.filter((name) => !userHooks.has(name));
  if (unknownHooks.length > 0) {
    const discovered = await discoverExtensions("hook", request.hooksDir);
    const names = available(discovered.found.map((hook) => hook.name));
    throw unknownError(request, "hook", unknownHooks, names);
  }
  if (userTools.size === 0 && userHooks.size === 0) {
    return { tools: [...builtinsUsed.values()], hooks: new Map(), diagnostics: [] };
  }
  // Only what the agent declares is loaded: a run never pays for unrelated extensions.
  const checkedTools = await check(request, [...userTools.values()]);
  const checkedHooks = await check(request, [...userHooks.values()]);
  const fail = (field: string, problem: string) => {
    throw new ExtensionLoadError(`${agentPath}: ${field}: ${problem}`);
  };
  for (const problem of checkedTools.problems.values()) fail("tools", problem);
  for (const [name, problem] of checkedHooks.problems) {
    const origin = request.hookOrigins?.get(name);
    if (origin !== undefined) throw new ExtensionLoadError(`${origin}: ${problem}`);
    fail("hooks", problem);
  }
  const tools = request.tools.flatMap((name) => {
    const loaded = checkedTools.loaded.get(name);
    const tool = isTool(loaded) ? createUserTool(loaded, request) : builtinsUsed.get(name);
    return tool === undefined ? [] : [tool];
  });
  const hooks = request.hooks.map((name) => checkedHooks.loaded.get(name)).filter(isHook);
  return {
    tools,
    hooks: new Map(hooks.map((hook) => [hook.name, hook])),
    diagnostics: [...checkedTools.diagnostics, ...checkedHooks.diagnostics],
  };
}

// One line per unknown name, each at its line of the agent file: `a.md:4: tools: unknown tool "x" (…)`.
function unknownError(
  request: AgentExtensionRequest,
  kind: "tool" | "hook",
  unknown: readonly string[],
  names: string,
): ExtensionLoadError {
  return new ExtensionLoadError(
    unknown.map((name) => {
      const line = request.lines?.get(`${kind}s:${name}`);
      const origin = kind === "hook" ? request.hookOrigins?.get(name) : undefined;
      const where = origin ??
        (line === undefined ? request.agentPath : `${request.agentPath}:${line}`);
      return `${where}: ${kind}s: unknown ${kind} "${name}" (available: ${names})`;
    }).join("\n"),
  );
}

/** What {@link loadToolByName} needs. */
export interface ToolByNameRequest extends ExtensionDirs {
  readonly name: string;
  readonly builtins: readonly Tool[];
  readonly context: ExtensionRunContext;
}

/**
 * One tool by name, user tools first (for `rienda tools test`).
 *
 * @throws {ExtensionLoadError} `unknown tool "x" (available: …)` or `tool "x": <problem>`
 */
export async function loadToolByName(request: ToolByNameRequest): Promise<Tool> {
  const found = await findExtension("tool", { dir: request.toolsDir, name: request.name });
  if (typeof found === "string") throw new ExtensionLoadError(found);
  if (found === null) {
    const builtin = request.builtins.find((tool) => tool.name === request.name);
    if (builtin !== undefined) return builtin;
    const user = await discoverExtensions("tool", request.toolsDir);
    const names = available([
      ...request.builtins.map((tool) => tool.name),
      ...user.found.map((tool) => tool.name),
    ]);
    throw new ExtensionLoadError(`unknown tool "${request.name}" (available: ${names})`);
  }
  const loaded = await loadExtensionModule(
    request.host,
    found,
    request.signal,
    cacheUse(request, true),
  );
  if (!loaded.ok) throw new ExtensionLoadError(loaded.problem);
  if (!isTool(loaded.extension)) throw new ExtensionLoadError(`tool "${request.name}": not a tool`);
  return createUserTool(loaded.extension, request);
}

/**
 * One hook by name (for `rienda hooks test`); its warnings go to `warnings`.
 *
 * @throws {ExtensionLoadError} `unknown hook "x" (available: …)` or `hook "x": <problem>`
 */
export async function loadHookByName(
  request: ExtensionDirs & { readonly name: string },
): Promise<{ readonly hook: LoadedHook; readonly warnings: readonly string[] }> {
  const found = await findExtension("hook", { dir: request.hooksDir, name: request.name });
  if (typeof found === "string") throw new ExtensionLoadError(found);
  if (found === null) {
    const hooks = await discoverExtensions("hook", request.hooksDir);
    const names = available(hooks.found.map((hook) => hook.name));
    throw new ExtensionLoadError(`unknown hook "${request.name}" (available: ${names})`);
  }
  const loaded = await loadExtensionModule(request.host, found, request.signal);
  if (!loaded.ok) throw new ExtensionLoadError(loaded.problem);
  if (!isHook(loaded.extension)) throw new ExtensionLoadError(`hook "${request.name}": not a hook`);
  return { hook: loaded.extension, warnings: loaded.warnings };
}
