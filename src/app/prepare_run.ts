/**
 * The composition root of a run: agent, configuration, model, key, tools,
 * hooks and session writer → the engine's `RunOptions`. Everything that can
 * fail before the first request fails here, before anything is written.
 *
 * @module
 */

import { resolve } from "node:path";
import { type AgentDefinition, loadAgentFile } from "../agents/agent_file.ts";
import { loadAgent } from "../agents/catalog.ts";
import { loadConfig } from "../config/config.ts";
import { loadCredentials } from "../config/credentials.ts";
import { resolvePaths } from "../config/paths.ts";
import { NO_HOOKS } from "../engine/hooks.ts";
import type { RunOptions } from "../engine/run.ts";
import { DISCARD_SESSION, type SessionWriter } from "../engine/session_writer.ts";
import { createModelClient } from "../providers/client.ts";
import { newSessionId } from "../sessions/ids.ts";
import { createSessionWriter } from "../sessions/writer.ts";
import { builtinTools } from "../tools/builtins.ts";
import type { Tool } from "../tools/tool.ts";
import { resolveModel } from "./resolve_model.ts";

/** What the user asked for. */
export interface RunRequest {
  readonly agent: { readonly kind: "id"; readonly id: string } | {
    readonly kind: "file";
    readonly path: string;
  };
  readonly model: string | undefined;
  readonly workdir: string | undefined;
  readonly config: string | undefined;
  readonly autoApprove: boolean;
  readonly maxTurns: number | undefined;
  readonly noSession: boolean;
  /** The `--thinking` level; absent means off. */
  readonly thinking?: string | undefined;
  readonly env: (name: string) => string | undefined;
  readonly cwd: string;
}

/** A prepared run; dispose it to release the session and the extension host. */
export interface RunPlan extends AsyncDisposable {
  readonly options: Omit<RunOptions, "emit" | "signal">;
}

/** Resolves everything a run needs, or throws a message that names the fix. */
export async function prepareRun(request: RunRequest): Promise<RunPlan> {
  const paths = resolvePaths(
    request.env,
    request.config === undefined ? {} : { config: request.config },
  );
  const config = await loadConfig(paths.configFile, { explicit: paths.configExplicit });
  const workdir = await resolveWorkdir(request.cwd, request.workdir);
  const agent = request.agent.kind === "id"
    ? await loadAgent(paths.agentsDir, request.agent.id)
    : await loadAgentFile(resolve(request.cwd, request.agent.path));
  const modelRef = request.model ?? agent.model ?? config.defaultModel;
  if (modelRef === undefined) {
    throw new Error(
      `agent "${agent.id}" names no model: set model: in ${agent.path}, pass -m PROVIDER/MODEL, or set default_model in config.yaml`,
    );
  }
  const credentials = await loadCredentials(paths.credentialsFile);
  const model = createModelClient(resolveModel(config, modelRef, {
    env: request.env,
    credentials,
    thinking: request.thinking,
  }));
  const tools = selectTools(agent, builtinTools());
  if (agent.hooks.length > 0) {
    throw new Error(`${agent.path}: hooks: unknown hook "${agent.hooks[0]}" (available: none)`);
  }
  const sessionId = newSessionId();
  const session: SessionWriter & Partial<AsyncDisposable> = request.noSession
    ? DISCARD_SESSION
    : createSessionWriter({
      sessionsDir: paths.sessionsDir,
      workdir,
      id: sessionId,
      agent: agent.id,
      model: modelRef,
    });
  return {
    options: {
      sessionId,
      agentId: agent.id,
      modelRef,
      system: agent.systemPrompt,
      model,
      tools,
      hooks: NO_HOOKS,
      session,
      history: [],
      workdir,
      diagnostics: [...credentials.warnings],
      ...(request.maxTurns === undefined ? {} : { maxTurns: request.maxTurns }),
    },
    async [Symbol.asyncDispose]() {
      await session[Symbol.asyncDispose]?.();
    },
  };
}

async function resolveWorkdir(cwd: string, workdir: string | undefined): Promise<string> {
  const path = resolve(cwd, workdir ?? ".");
  try {
    const info = await Deno.stat(path);
    if (info.isDirectory) return path;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  throw new Error(`workdir ${path} is not a directory: pass an existing directory with -C`);
}

function selectTools(agent: AgentDefinition, available: readonly Tool[]): Tool[] {
  const byName = new Map(available.map((tool) => [tool.name, tool]));
  return agent.tools.map((name) => {
    const tool = byName.get(name);
    if (tool === undefined) {
      const names = [...byName.keys()].sort().join(", ");
      throw new Error(`${agent.path}: tools: unknown tool "${name}" (available: ${names})`);
    }
    return tool;
  });
}
