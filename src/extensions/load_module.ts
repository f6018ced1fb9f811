/**
 * Loads one extension: runs its module's top-level code in a fresh context
 * and checks the exports. A broken module is a problem in the spec's words
 * (`tool "x": missing "execute" (a function)`), never a crash.
 *
 * - Tools export `description` (non-blank string), `parameters` (a JSON
 *   Schema of `"type": "object"`) and `execute` (a function); other keys are
 *   allowed (helpers).
 * - Hooks export functions named after the seven points. A known point that is
 *   not a function breaks the hook; an unknown key is a warning (the hook
 *   still loads), since it is most often a misspelt point. `failClosed`
 *   (a boolean) makes the hook a guard (docs/extensions.md, "Policy").
 * - A tool's exports may come from the exports cache; a hook's never do,
 *   and a cached tool's first call is checked against the module
 *   ({@link exportsMismatch}): security settings never come from a cache.
 *
 * @module
 */

import { type CapabilitySet, parseCapabilitySet } from "../sandbox/capability_set.ts";
import { HOOK_POINTS, type HookPoint } from "../engine/hooks.ts";
import type { ExtensionSource } from "./discovery.ts";
import { formatGuestError, type GuestResult, withArticle } from "./guest_result.ts";
import { cachedExports, forgetExports, rememberExports } from "./exports_cache.ts";
import { type ExtensionHost, LOAD_TIMEOUT_MS } from "./host.ts";

/** A user tool whose exports were checked. */
export interface LoadedTool extends ExtensionSource {
  readonly kind: "tool";
  /** The `capabilities` it declares; absent when it declares none (full access). */
  readonly capabilities?: CapabilitySet;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  /**
   * The exports cache its exports were read from, when they were: its first
   * call checks them against the module first ({@link exportsMismatch}).
   */
  readonly cachedIn?: string;
}

/** A user hook whose exports were checked. */
export interface LoadedHook extends ExtensionSource {
  readonly kind: "hook";
  /** The `capabilities` it declares; absent when it declares none (full access). */
  readonly capabilities?: CapabilitySet;
  /** The points it implements, in {@link HOOK_POINTS} order. */
  readonly points: readonly HookPoint[];
  /** A failure to give a verdict is a refusal (the module's `failClosed`, or the agent's). */
  readonly failClosed: boolean;
  /** The most one invocation may take (the agent's `timeout_ms`); none when absent. */
  readonly timeoutMs?: number;
}

/** The export that makes a hook fail closed. */
export const FAIL_CLOSED_EXPORT = "failClosed";

/** The outcome of {@link loadExtensionModule}. */
export type ModuleLoad =
  | {
    readonly ok: true;
    readonly extension: LoadedTool | LoadedHook;
    /** Non-fatal remarks (`hook "x": unknown point …`). */
    readonly warnings: readonly string[];
  }
  | { readonly ok: false; readonly problem: string };

interface ExportInfo {
  readonly type: string;
  /** JSON text of the value; null when it cannot be encoded, absent for functions. */
  readonly json?: string | null;
}

interface ExportReport {
  readonly type: string;
  readonly keys: ReadonlyMap<string, ExportInfo>;
}

function parseReport(value: unknown): ExportReport | null {
  if (typeof value !== "object" || value === null) return null;
  const type: unknown = Reflect.get(value, "type");
  const keys: unknown = Reflect.get(value, "keys");
  if (typeof type !== "string" || typeof keys !== "object" || keys === null) return null;
  const map = new Map<string, ExportInfo>();
  for (const [key, info] of Object.entries(keys)) {
    if (typeof info !== "object" || info === null) continue;
    const infoType: unknown = Reflect.get(info, "type");
    const json: unknown = Reflect.get(info, "json");
    if (typeof infoType !== "string") continue;
    map.set(
      key,
      typeof json === "string" || json === null ? { type: infoType, json } : { type: infoType },
    );
  }
  return { type, keys: map };
}

function reportOf(result: GuestResult): ExportReport | string {
  switch (result.kind) {
    case "threw":
      return `its top-level code failed: ${formatGuestError(result.error)}`;
    case "stopped":
      return result.reason === "timeout"
        ? `its top-level code did not finish within ${LOAD_TIMEOUT_MS / 1000} s`
        : `it could not be loaded: ${result.message}`;
    case "value": {
      const report = result.value.kind === "json" ? parseReport(result.value.value) : null;
      if (report === null) return "it could not be loaded: unreadable exports";
      if (report.type !== "object" && report.type !== "function") {
        return `module.exports must be an object (found ${withArticle(report.type)})`;
      }
      return report;
    }
    default: {
      const never: never = result;
      throw new Error(`unexpected result ${JSON.stringify(never)}`);
    }
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function checkTool(
  report: ExportReport,
): { problems: string[]; tool?: Pick<LoadedTool, "description" | "parameters"> } {
  const problems: string[] = [];
  const description = report.keys.get("description");
  const descriptionText = description?.json ? parseJson(description.json) : undefined;
  if (description === undefined || description.type === "undefined") {
    problems.push(`missing "description" (a non-blank string)`);
  } else if (typeof descriptionText !== "string") {
    problems.push(
      `"description" must be a non-blank string (found ${withArticle(description.type)})`,
    );
  } else if (descriptionText.trim() === "") {
    problems.push(`"description" is blank`);
  }
  const parameters = report.keys.get("parameters");
  const schema = parameters?.json ? parseJson(parameters.json) : undefined;
  if (parameters === undefined || parameters.type === "undefined") {
    problems.push(`missing "parameters" (a JSON Schema object)`);
  } else if (parameters.type !== "object" || typeof schema !== "object" || schema === null) {
    problems.push(
      `"parameters" must be a JSON Schema object (found ${withArticle(parameters.type)})`,
    );
  } else if (Reflect.get(schema, "type") !== "object") {
    problems.push(`"parameters" must be an object schema ("type": "object")`);
  }
  const execute = report.keys.get("execute");
  if (execute === undefined || execute.type === "undefined") {
    problems.push(`missing "execute" (a function)`);
  } else if (execute.type !== "function") {
    problems.push(`"execute" must be a function (found ${withArticle(execute.type)})`);
  }
  if (problems.length > 0 || typeof descriptionText !== "string") return { problems };
  const record: Record<string, unknown> = {};
  if (typeof schema === "object" && schema !== null) Object.assign(record, schema);
  return { problems, tool: { description: descriptionText, parameters: record } };
}

function checkHook(
  report: ExportReport,
): { problems: string[]; warnings: string[]; points: HookPoint[]; failClosed: boolean } {
  const problems: string[] = [];
  const warnings: string[] = [];
  const points: HookPoint[] = [];
  const known: readonly string[] = [...HOOK_POINTS, ...MODULE_SETTINGS];
  for (const point of HOOK_POINTS) {
    const info = report.keys.get(point);
    if (info === undefined || info.type === "undefined") continue;
    if (info.type === "function") points.push(point);
    else problems.push(`"${point}" must be a function (found ${withArticle(info.type)})`);
  }
  const failClosed = report.keys.get(FAIL_CLOSED_EXPORT);
  const closed = failClosed?.json === "true";
  if (
    failClosed !== undefined && failClosed.type !== "boolean" && failClosed.type !== "undefined"
  ) {
    problems.push(
      `"${FAIL_CLOSED_EXPORT}" must be true or false (found ${withArticle(failClosed.type)})`,
    );
  }
  for (const key of report.keys.keys()) {
    if (!known.includes(key) && key !== FAIL_CLOSED_EXPORT) {
      warnings.push(`unknown point "${key}" ignored (known: ${HOOK_POINTS.join(", ")})`);
    }
  }
  if (points.length === 0 && problems.length === 0) {
    problems.push(`exports no hook point (expected at least one of: ${HOOK_POINTS.join(", ")})`);
  }
  return { problems, warnings, points, failClosed: closed };
}

/** Exported keys that are settings of the module, not hook points. */
const MODULE_SETTINGS = ["capabilities"];

/** The `capabilities` export: null when absent, or its problems (`capabilities.http.0: …`). */
function checkCapabilities(report: ExportReport): CapabilitySet | null | string[] {
  const info = report.keys.get("capabilities");
  if (info === undefined || info.type === "undefined") return null;
  const value = info.json ? parseJson(info.json) : undefined;
  if (info.type !== "object" || typeof value !== "object" || value === null) {
    return [
      `"capabilities" must be an object such as { http: ["api.github.com"] } ` +
      `(found ${withArticle(info.type)})`,
    ];
  }
  const { set, problems } = parseCapabilitySet(value);
  if (problems.length === 0) return set;
  return problems.map(({ path, message }) => `"${["capabilities", ...path].join(".")}" ${message}`);
}

/** How {@link loadExtensionModule} uses the exports cache (`exports_cache.ts`). */
export interface ExportsCacheUse {
  readonly dir: string;
  /** False: read the module and refresh the cache (the listings, which must show the module). */
  readonly read: boolean;
}

/**
 * What the module's top-level code exports, and the cache it came from. Only
 * a tool's exports are cached: a hook's points, `failClosed` and
 * `capabilities` decide what a run lets through before any invocation could
 * check them, so they always come from the module.
 */
async function inspect(
  host: ExtensionHost,
  extension: ExtensionSource,
  signal: AbortSignal,
  cache: ExportsCacheUse | undefined,
): Promise<{ result: GuestResult; cachedIn?: string }> {
  const { source } = extension;
  const dir = extension.kind === "tool" ? cache?.dir : undefined;
  const cached = dir === undefined || cache?.read !== true
    ? undefined
    : await cachedExports(dir, extension, source);
  // An entry edited into something else than a report is no entry: the module is read again.
  if (dir !== undefined && cached !== undefined && parseReport(cached) !== null) {
    return { result: { kind: "value", value: { kind: "json", value: cached } }, cachedIn: dir };
  }
  const result = await host.inspect(source, signal);
  if (dir !== undefined && result.kind === "value" && result.value.kind === "json") {
    await rememberExports(dir, extension, source, result.value.value);
  }
  return { result };
}

/** Checks an export report: the extension, or the problem naming it. */
function loadFromReport(
  extension: ExtensionSource,
  result: GuestResult,
  cachedIn: string | undefined,
): ModuleLoad {
  const prefix = `${extension.kind} "${extension.name}": `;
  const report = reportOf(result);
  if (typeof report === "string") return { ok: false, problem: prefix + report };
  const declared = checkCapabilities(report);
  const capabilityProblems = Array.isArray(declared) ? declared : [];
  const capabilities = Array.isArray(declared) || declared === null
    ? {}
    : { capabilities: declared };
  if (extension.kind === "tool") {
    const { problems, tool } = checkTool(report);
    problems.push(...capabilityProblems);
    if (tool === undefined || problems.length > 0) {
      return { ok: false, problem: prefix + problems.join("; ") };
    }
    return {
      ok: true,
      extension: {
        ...extension,
        kind: "tool",
        ...tool,
        ...capabilities,
        ...(cachedIn === undefined ? {} : { cachedIn }),
      },
      warnings: [],
    };
  }
  const { problems, warnings, points, failClosed } = checkHook(report);
  problems.push(...capabilityProblems);
  if (problems.length > 0) return { ok: false, problem: prefix + problems.join("; ") };
  return {
    ok: true,
    extension: { ...extension, kind: "hook", points, failClosed, ...capabilities },
    warnings: warnings.map((warning) => prefix + warning),
  };
}

/**
 * Runs the module's top-level code in a fresh context and checks its
 * exports; with `cache`, a tool's exports are remembered there, and read
 * from there when `cache.read` holds (see {@link inspect}).
 */
export async function loadExtensionModule(
  host: ExtensionHost,
  extension: ExtensionSource,
  signal: AbortSignal,
  cache?: ExportsCacheUse,
): Promise<ModuleLoad> {
  const { result, cachedIn } = await inspect(host, extension, signal, cache);
  return loadFromReport(extension, result, cachedIn);
}

/**
 * Before the first call of a tool whose exports came from the cache: reads
 * the module and compares what decides its calls (`capabilities`, which
 * make its grant, and `parameters`, which check its arguments) with what
 * was loaded. Null when they agree; `interrupted`; else why the call is
 * refused (the cache entry is then removed, so the next run reads the
 * module). A cache entry rewritten by hand cannot widen a tool's grant.
 */
export async function exportsMismatch(
  host: ExtensionHost,
  tool: LoadedTool,
  signal: AbortSignal,
): Promise<string | "interrupted" | null> {
  const result = await host.inspect(tool.source, signal);
  if (result.kind === "stopped" && result.reason === "interrupted") return "interrupted";
  const { kind, name, path, source } = tool;
  const fresh = loadFromReport({ kind, name, path, source }, result, undefined);
  const differs: string[] = [];
  if (!fresh.ok) differs.push(fresh.problem);
  else if (fresh.extension.kind === "tool") {
    const json = (value: unknown) => JSON.stringify(value ?? null);
    if (json(fresh.extension.capabilities) !== json(tool.capabilities)) {
      differs.push(`its "capabilities"`);
    }
    if (json(fresh.extension.parameters) !== json(tool.parameters)) {
      differs.push(`its "parameters"`);
    }
  }
  if (differs.length === 0) return null;
  if (tool.cachedIn !== undefined) await forgetExports(tool.cachedIn, tool);
  return `the tool was not executed: what tool "${tool.name}" exports differs from what the ` +
    `exports cache held (${differs.join("; ")}); the entry was removed, so the next run ` +
    "reads the module again";
}
