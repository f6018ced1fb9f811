/**
 * `rienda acp`: the Agent Client Protocol (v1) on stdin/stdout, served with
 * the official SDK (`@agentclientprotocol/sdk`); docs/editors.md.
 *
 * - stdout carries only the SDK's JSON-RPC lines; everything else (notices,
 *   diagnostics, retries) is a log line on stderr.
 * - Malformed and unknown messages get JSON-RPC errors from the SDK; the
 *   process goes on.
 * - One prompt at a time per session; `session/cancel` interrupts it like
 *   Ctrl-C, and the prompt answers `cancelled`.
 * - When the client closes stdin, or the process is interrupted, every
 *   running prompt is interrupted and awaited, then the server returns (its
 *   tools' process groups are killed by `main.ts` on the way out).
 *
 * @module
 */

import * as acp from "@agentclientprotocol/sdk";
import { isAbsolute } from "node:path";
import { newSessionId } from "../sessions/ids.ts";
import { VERSION } from "../base/version.ts";
import { errorMessage } from "../base/unknown.ts";
import { runPrompt } from "./prompt_turn.ts";
import { editorMcpServers } from "./editor_mcp_servers.ts";
import { configOptions, setConfigOption } from "./config_options.ts";
import { type ClientFsCapabilities, createClientFiles } from "./client_files.ts";
import {
  type AcpAgentOptions,
  type OpenServedSession,
  openServedSession,
  type ServedSession,
  storedUpdates,
} from "./served_session.ts";

export type { AcpAgentOptions } from "./served_session.ts";

/** What {@link serveAcp} serves on. */
export interface ServeAcpOptions {
  /** The client's messages (stdin). */
  readonly input: ReadableStream<Uint8Array>;
  /** Where the protocol goes (stdout). */
  readonly output: WritableStream<Uint8Array>;
  /** Writes one log line (stderr). */
  readonly log: (line: string) => void;
  readonly agent: AcpAgentOptions;
  /** The process's interrupt: ends the server as a closed stdin does. */
  readonly signal: AbortSignal;
}

/** ACP's JSON-RPC code for an unknown resource (a session id). */
const RESOURCE_NOT_FOUND = -32002;

/** JSON-RPC's code for an internal error. */
const INTERNAL_ERROR = -32603;

/**
 * How an editor can give rienda a key (the ACP registry asks listed agents
 * to say): rienda reads both on each prompt, so `authenticate` has nothing
 * to do.
 */
const AUTH_METHODS: acp.AuthMethod[] = [
  {
    id: "environment",
    name: "API key in the environment",
    description:
      "Set the provider's variable (ANTHROPIC_API_KEY, OPENAI_API_KEY, …) where the editor starts rienda acp",
  },
  {
    id: "rienda-auth-login",
    name: "rienda auth login",
    description: "Run rienda auth login PROVIDER in a terminal once: the key is stored for rienda",
  },
];

/** Serves one client until it closes the connection or `signal` aborts. */
export async function serveAcp(options: ServeAcpOptions): Promise<void> {
  const { log, signal } = options;
  const { env } = options.agent;
  /** What the client advertised of `fs` in `initialize`. */
  let fs: ClientFsCapabilities = { readTextFile: false, writeTextFile: false };
  const sessions = new Map<string, ServedSession>();
  const served = (id: string): ServedSession => {
    const session = sessions.get(id);
    if (session === undefined) throw unknownSession(id);
    return session;
  };
  const mcp = (params: { readonly mcpServers: readonly acp.McpServer[] }) =>
    editorMcpServers(params.mcpServers, { secrets: options.agent.secrets, log });
  const opened = async (open: OpenServedSession): Promise<ServedSession> => {
    try {
      return await openServedSession(open, options.agent);
    } catch (error) {
      throw new acp.RequestError(INTERNAL_ERROR, errorMessage(error));
    }
  };
  const app = acp.agent({ name: "rienda" })
    .onRequest(acp.methods.agent.initialize, ({ params }) => {
      fs = {
        readTextFile: params.clientCapabilities?.fs?.readTextFile === true,
        writeTextFile: params.clientCapabilities?.fs?.writeTextFile === true,
      };
      return {
        protocolVersion: acp.PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: false, audio: false, embeddedContext: true },
          mcpCapabilities: { http: true, sse: true },
        },
        authMethods: AUTH_METHODS,
        agentInfo: { name: "rienda", title: "rienda", version: VERSION },
      };
    })
    .onRequest(acp.methods.agent.authenticate, () => ({}))
    .onRequest(acp.methods.agent.session.new, async ({ params, client }) => {
      const workdir = await checkedWorkdir(params.cwd);
      const id = newSessionId();
      const session = await opened({
        id,
        workdir,
        stored: false,
        mcpServers: mcp(params),
        files: createClientFiles({ client, sessionId: id, workdir, capabilities: fs }),
      });
      sessions.set(id, session);
      return { sessionId: id, configOptions: await configOptions(session.conversation, env) };
    })
    .onRequest(acp.methods.agent.session.load, async ({ params, client }) => {
      const workdir = await checkedWorkdir(params.cwd);
      const earlier = sessions.get(params.sessionId);
      if (earlier !== undefined && earlier.turn !== null) throw busy(params.sessionId);
      const session = await opened({
        id: params.sessionId,
        workdir,
        stored: true,
        mcpServers: mcp(params),
        files: createClientFiles({
          client,
          sessionId: params.sessionId,
          workdir,
          capabilities: fs,
        }),
      });
      const updates = await storedUpdates(session).catch(async (error: unknown) => {
        await session.conversation.close();
        throw new acp.RequestError(INTERNAL_ERROR, errorMessage(error));
      });
      // ACP: the whole history is sent before session/load answers.
      for (const update of updates) {
        await client.notify(acp.methods.client.session.update, {
          sessionId: params.sessionId,
          update,
        });
      }
      sessions.set(params.sessionId, session);
      await earlier?.conversation.close();
      return { configOptions: await configOptions(session.conversation, env) };
    })
    .onRequest(
      acp.methods.agent.session.prompt,
      ({ params, client }) =>
        runPrompt(served(params.sessionId), params.prompt, {
          client,
          log,
          autoApprove: options.agent.autoApprove,
          signal,
        }),
    )
    .onRequest(acp.methods.agent.session.setConfigOption, async ({ params }) => {
      const { conversation } = served(params.sessionId);
      const problem = typeof params.value === "string"
        ? await setConfigOption(conversation, env, params.configId, params.value)
        : `${params.configId}: takes one of its values, not a boolean`;
      if (problem !== null) throw acp.RequestError.invalidParams(undefined, problem);
      return { configOptions: await configOptions(conversation, env) };
    })
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.turn?.controller.abort(
        new DOMException("the prompt was cancelled", "AbortError"),
      );
    });
  const connection = app.connect(acp.ndJsonStream(options.output, options.input));
  const interrupted = () => connection.close();
  signal.addEventListener("abort", interrupted, { once: true });
  if (signal.aborted) connection.close();
  await connection.closed.catch((error: unknown) =>
    log(`the connection failed: ${errorMessage(error)}`)
  );
  signal.removeEventListener("abort", interrupted);
  // No prompt outlives its client: each is interrupted, and awaited so its session is closed.
  const ends: Promise<unknown>[] = [];
  for (const session of sessions.values()) {
    session.turn?.controller.abort(new DOMException("the client went away", "AbortError"));
    ends.push((session.turn?.done ?? Promise.resolve()).then(() => session.conversation.close()));
  }
  await Promise.all(ends);
}

/** `cwd` of `session/new`, which must be an absolute path to a directory. */
async function checkedWorkdir(cwd: string): Promise<string> {
  if (!isAbsolute(cwd)) {
    throw acp.RequestError.invalidParams(
      undefined,
      `cwd must be an absolute path (found "${cwd}")`,
    );
  }
  const info = await Deno.stat(cwd).catch(() => null);
  if (info === null || !info.isDirectory) {
    throw acp.RequestError.invalidParams(undefined, `cwd ${cwd} is not a directory`);
  }
  return cwd;
}

/** The error of a load while a prompt runs in the session. */
function busy(id: string): acp.RequestError {
  return acp.RequestError.invalidRequest(
    undefined,
    `session ${id} is running a prompt: send session/cancel first`,
  );
}

/** The resource-not-found error of a session id this process does not serve. */
function unknownSession(id: string): acp.RequestError {
  return new acp.RequestError(
    RESOURCE_NOT_FOUND,
    `unknown session "${id}": open it with session/new or session/load first`,
    { sessionId: id },
  );
}
