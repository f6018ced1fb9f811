/**
 * The hooks of one run as the engine's hook runner (docs/extending.md, "Hook
 * entries"): `config.yaml`'s entries and the agent's, in their run order.
 *
 * - Order: lower `priority` first; equal priorities keep declaration order,
 *   `config.yaml`'s before the agent's (`config/hook_entries.ts`).
 * - A JavaScript hook that `config.yaml` lists runs once, with
 *   `config.yaml`'s settings, even when the agent lists it too: an agent
 *   cannot drop or weaken a home-wide hook.
 * - A JavaScript hook runs with its entry's `fail_closed` and `timeout_ms`
 *   over the module's own; its `matcher` limits its tool points, and is an
 *   error when it implements neither.
 * - Commands run as processes (`hooks/command_hook.ts`), with no QuickJS;
 *   so do `claude:` entries (`hooks/claude_hook.ts`), whose `ask` is the
 *   question `ctx.confirm` asks, and the chat's own hooks
 *   (`hooks/session_hook.ts`), after the priority-0 entries.
 * - In a project you have not trusted, a command hook that would run a file
 *   of the workspace does not run and fails closed (`hooks/project_files.ts`).
 *
 * @module
 */

import type { AgentDefinition } from "../agents/agent_file.ts";
import { type AgentSource, findAgentProject } from "../agents/agent_sources.ts";
import {
  entryLabel,
  type HookEntry,
  orderHookEntries,
  type SourcedHookEntry,
  TOOL_POINTS,
  toolMatcher,
} from "../config/hook_entries.ts";
import { formatFieldPath } from "../base/field_path.ts";
import { loadLinearRegExp } from "../base/linear_regexp.ts";
import { errorMessage } from "../base/unknown.ts";
import { type HookCallReport, type HookRunner, NO_HOOKS } from "../engine/hooks.ts";
import { createHookChain } from "../hooks/hook_chain.ts";
import { type CommandHookContext, createCommandHook } from "../hooks/command_hook.ts";
import { createClaudeHook } from "../hooks/claude_hook.ts";
import { createSessionHook, type SessionHook } from "../hooks/session_hook.ts";
import { answerConfirm } from "../extensions/bridge/ui.ts";
import type { RunnableHook } from "../hooks/runnable_hook.ts";
import type { ExtensionHost } from "../extensions/host.ts";
import { createScriptHook } from "../extensions/script_hook.ts";
import type { LoadedHook } from "../extensions/load_module.ts";
import type { ExtensionRunContext } from "../extensions/run_context.ts";

/** The hook entries of a run, before they are ordered. */
export interface RunHookEntries {
  /** `hooks:` of `config.yaml`. */
  readonly config: readonly HookEntry[];
  /** The file `config.yaml` was read from (null: none). */
  readonly configFile: string | null;
  readonly agent: Pick<AgentDefinition, "path" | "hookEntries">;
}

/** The entries of a run in run order, with their source (see the module doc). */
export function runHookOrder(entries: RunHookEntries): SourcedHookEntry[] {
  const fromConfig = new Set(
    entries.config.flatMap((entry) => entry.kind === "script" ? [entry.name] : []),
  );
  return orderHookEntries([
    ...entries.config.map((entry) => ({
      entry,
      source: "config" as const,
      ...(entries.configFile === null ? {} : { file: entries.configFile }),
    })),
    ...entries.agent.hookEntries
      .filter((entry) => entry.kind !== "script" || !fromConfig.has(entry.name))
      .map((entry) => ({
        entry,
        source: "agent" as const,
        file: entry.origin?.file ?? entries.agent.path,
      })),
  ]);
}

/** The names of the JavaScript hooks of `ordered`, in order, with where `config.yaml` declares its own. */
export function scriptHookNames(ordered: readonly SourcedHookEntry[]): {
  readonly names: readonly string[];
  readonly origins: ReadonlyMap<string, string>;
} {
  const origins = new Map<string, string>();
  const names: string[] = [];
  for (const { entry, source, file } of ordered) {
    if (entry.kind !== "script") continue;
    names.push(entry.name);
    if (source === "config") origins.set(entry.name, entryWhere(file, entry));
  }
  return { names, origins };
}

/** `/h/config.yaml: hooks[2]`: where an entry is, for messages. */
export function entryWhere(file: string | undefined, entry: HookEntry): string {
  return `${file ?? "config.yaml"}: ${
    formatFieldPath(["hooks", entry.origin?.index ?? entry.index])
  }`;
}

/**
 * Where the chat's own hooks (priority 0, declared last) go in `ordered`:
 * after every entry of priority 0 or lower.
 */
export function sessionHooksAt(ordered: readonly SourcedHookEntry[]): number {
  return ordered.filter(({ entry }) => entry.priority <= 0).length;
}

/**
 * The real root of `workdir`'s project when you have not trusted it, for
 * {@link RunHooksRequest.untrustedProject}; undefined when you have.
 */
export async function untrustedProjectOf(
  sources: readonly AgentSource[],
  trustFile: string,
  workdir: string,
): Promise<string | undefined> {
  // No project folder among the sources when they are the home's own (rienda started in ~).
  const project = sources.find((source) => source.project !== undefined)?.project ??
    await findAgentProject(trustFile, workdir);
  return project.trust === "trusted" ? undefined : project.realRoot;
}

/** Loads what the matchers of `ordered` run on (RE2), when one has a matcher. */
export async function loadRunMatchers(ordered: readonly SourcedHookEntry[]): Promise<void> {
  if (ordered.some(({ entry }) => entry.matcher !== undefined)) await loadLinearRegExp();
}

/** What {@link createRunHooks} builds the hooks from. */
export interface RunHooksRequest {
  readonly ordered: readonly SourcedHookEntry[];
  /** The loaded JavaScript hooks by name (every script entry's). */
  readonly scripts: ReadonlyMap<string, LoadedHook>;
  /** Present when a JavaScript hook runs. */
  readonly host?: ExtensionHost;
  readonly context: ExtensionRunContext;
  /** One report per hook call (the `hook` events). */
  readonly report?: (report: HookCallReport) => void;
  /** The chat's own hooks (`/hooks add`), numbered from 1 in this order. */
  readonly session?: readonly SessionHook[];
  /** The root of the workspace's project when it is not trusted (`CommandHookContext`). */
  readonly untrustedProject?: string | undefined;
}

function scriptHook(
  sourced: SourcedHookEntry,
  request: EntryHookRequest,
  create: (hook: LoadedHook, matches: (tool: string) => boolean) => RunnableHook,
): RunnableHook {
  const { entry, file } = sourced;
  if (entry.kind !== "script") throw new Error("not a script entry");
  const loaded = request.scripts.get(entry.name);
  if (loaded === undefined) {
    throw new Error(`${entryWhere(file, entry)}: hook "${entry.name}" is not loaded`);
  }
  if (entry.matcher !== undefined && !loaded.points.some((point) => TOOL_POINTS.includes(point))) {
    throw new Error(
      `${entryWhere(file, entry)}.matcher: applies to beforeToolExecute and afterToolExecute, ` +
        `and hook "${entry.name}" implements neither (it implements: ${
          loaded.points.join(", ")
        }): remove it`,
    );
  }
  return create({
    ...loaded,
    failClosed: entry.failClosed ?? loaded.failClosed,
    ...(entry.timeoutMs === undefined ? {} : { timeoutMs: entry.timeoutMs }),
  }, toolMatcher(entry));
}

/** What one entry's hook is built from: {@link RunHooksRequest} without the order. */
export type EntryHookRequest = Pick<
  RunHooksRequest,
  "scripts" | "host" | "context" | "untrustedProject"
>;

/** What the context of a run gives a command hook. */
function commandContextOf(context: ExtensionRunContext): CommandHookContext {
  return { workdir: context.workdir, session: context.session, sandbox: context.sandbox };
}

/**
 * The hook of one entry, as a run calls it (and `rienda hooks test`).
 *
 * @throws {Error} naming the entry: a matcher on a hook without tool points, a hook not loaded
 */
export function entryHook(sourced: SourcedHookEntry, request: EntryHookRequest): RunnableHook {
  const { entry, file } = sourced;
  const { context, host } = request;
  try {
    toolMatcher(entry);
  } catch (error) {
    throw new Error(`${entryWhere(file, entry)}.matcher: ${errorMessage(error)}`);
  }
  switch (entry.kind) {
    case "script":
      if (host === undefined) throw new Error(`hook "${entry.name}" needs the extension host`);
      return scriptHook(
        sourced,
        request,
        (hook, matches) => createScriptHook(hook, { host, context, matches }),
      );
    case "command":
      // Entries are yours, but the workspace's files are the project's (hooks/project_files.ts).
      return createCommandHook(entry, {
        ...commandContextOf(context),
        untrustedProject: request.untrustedProject,
      });
    case "claude":
      return createClaudeHook(entry, {
        workdir: context.workdir,
        sessionId: context.session.id,
        confirm: (question, signal) =>
          answerConfirm(context, question, signal, `hook "${entryLabel(entry)}"`),
        notice: context.notice,
        sandbox: context.sandbox,
        untrustedProject: request.untrustedProject,
      });
  }
}

/**
 * The runner of the ordered entries (see the module doc).
 *
 * @throws {Error} naming the entry: a matcher on a hook without tool points, or that RE2
 *   refuses (`loadRunMatchers` first)
 */
export function createRunHooks(request: RunHooksRequest): HookRunner {
  if (request.ordered.length === 0 && (request.session ?? []).length === 0) return NO_HOOKS;
  const { context } = request;
  const hooks = request.ordered.map((sourced) => entryHook(sourced, request));
  // The chat's own hooks run last among those of priority 0 (config/hook_entries.ts).
  const own = (request.session ?? []).map((hook, i) =>
    createSessionHook(hook, i + 1, commandContextOf(context))
  );
  hooks.splice(sessionHooksAt(request.ordered), 0, ...own);
  return createHookChain(hooks, {
    notice: context.notice,
    ...(request.report === undefined ? {} : { report: request.report }),
  });
}
