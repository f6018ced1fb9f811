/**
 * An editor for `rienda acp` tests: starts the CLI as a subprocess (same
 * environment rules as `rienda.ts`) and connects the official ACP SDK's
 * client side to its stdin/stdout. Records every `session/update` and every
 * raw stdout line, answers permission requests as the test says, and can
 * write raw bytes to the agent (malformed messages).
 *
 * @module
 */

import * as acp from "@agentclientprotocol/sdk";
import { childEnv, riendaDenoArgs, type RiendaOptions } from "./rienda.ts";
import { waitUntil } from "./wait_until.ts";

/** How the test editor answers `session/request_permission`. */
export type PermissionAnswer = (request: acp.RequestPermissionRequest) =>
  | acp.RequestPermissionResponse
  | Promise<acp.RequestPermissionResponse>;

/** What the test editor advertises and answers. */
export interface AcpClientOptions extends RiendaOptions {
  /** Arguments after `acp`. */
  readonly args?: readonly string[];
  readonly permission?: PermissionAnswer;
  /**
   * The editor's buffers, by absolute path: `fs/read_text_file` answers from
   * them (an error for any other path) and `fs/write_text_file` sets them.
   */
  readonly buffers?: Map<string, string>;
  /** The `deno` arguments that run the CLI with its arguments (a bench's); default the dev task's. */
  readonly denoArgs?: (args: readonly string[]) => string[];
}

/** A running `rienda acp` with the SDK's client connected to it. */
export interface AcpClient extends AsyncDisposable {
  readonly pid: number;
  /** The SDK's context for calling the agent (`request(methods.agent…)`). */
  readonly agent: acp.ClientContext;
  /** Every `session/update` received, in order. */
  readonly updates: acp.SessionNotification[];
  /** Every permission request received, in order. */
  readonly permissionRequests: acp.RequestPermissionRequest[];
  /** Every `fs/*` request received, in order: the method and the path. */
  readonly fsRequests: { readonly method: string; readonly path: string }[];
  /** Resolves once `ready()` holds over the updates; rejects after `timeoutMs`. */
  waitForUpdate(
    ready: (updates: readonly acp.SessionNotification[]) => boolean,
    timeoutMs?: number,
  ): Promise<void>;
  /** Writes raw text to the agent's stdin (a malformed line, an unknown method). */
  writeRaw(text: string): Promise<void>;
  /** Every line the agent wrote to stdout so far. */
  stdoutLines(): string[];
  stderrText(): string;
  /** Closes stdin and waits for the exit code (kills after `timeoutMs`). */
  close(timeoutMs?: number): Promise<number>;
}

const encoder = new TextEncoder();

/** Starts `rienda acp` and connects the SDK's client to it (not yet initialized). */
export async function startAcpClient(options: AcpClientOptions): Promise<AcpClient> {
  const child = new Deno.Command(Deno.execPath(), {
    args: (options.denoArgs ?? riendaDenoArgs)(["acp", ...(options.args ?? [])]),
    cwd: options.cwd,
    clearEnv: true,
    env: await childEnv(options),
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let stdout = "";
  let stderr = "";
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of [...listeners]) listener();
  };
  const [forClient, forRecord] = child.stdout.tee();
  const recording = (async () => {
    for await (const text of forRecord.pipeThrough(new TextDecoderStream())) stdout += text;
  })();
  const stderrRead = (async () => {
    for await (const text of child.stderr.pipeThrough(new TextDecoderStream())) {
      stderr += text;
      changed();
    }
  })();
  const updates: acp.SessionNotification[] = [];
  const permissionRequests: acp.RequestPermissionRequest[] = [];
  const fsRequests: { method: string; path: string }[] = [];
  const buffers = options.buffers;
  const app = acp.client({ name: "rienda-test-editor" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params);
      changed();
    })
    .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
      permissionRequests.push(params);
      changed();
      if (options.permission === undefined) throw new Error("the test answers no permission");
      return await options.permission(params);
    })
    .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => {
      fsRequests.push({ method: "read", path: params.path });
      const content = buffers?.get(params.path);
      if (content === undefined) throw new Error(`no buffer for ${params.path}`);
      return { content };
    })
    .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
      fsRequests.push({ method: "write", path: params.path });
      if (buffers === undefined) throw new Error("the test editor has no buffers");
      buffers.set(params.path, params.content);
      return {};
    });
  const stdin = child.stdin;
  const connection = app.connect(acp.ndJsonStream(stdin, forClient));
  const ended = Promise.all([child.status, recording, stderrRead]);
  const describe = () => `--- stdout\n${stdout}--- stderr\n${stderr}`;
  let closed: Promise<number> | undefined;
  const close = (timeoutMs = 30_000): Promise<number> => {
    closed ??= (async () => {
      connection.close();
      await stdin.close().catch(() => {});
      const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
      try {
        const [status] = await ended;
        return status.code;
      } finally {
        clearTimeout(timer);
      }
    })();
    return closed;
  };
  return {
    pid: child.pid,
    agent: connection.agent,
    updates,
    permissionRequests,
    fsRequests,
    waitForUpdate: (ready, timeoutMs = 30_000) =>
      waitUntil(() => ready(updates), listeners, {
        timeoutMs,
        onTimeout: () =>
          new Error(`the update never came: ${JSON.stringify(updates)}\n${describe()}`),
        ended,
      }),
    async writeRaw(text) {
      const writer = stdin.getWriter();
      try {
        await writer.write(encoder.encode(text));
      } finally {
        writer.releaseLock();
      }
    },
    stdoutLines: () => stdout.split("\n").filter((line) => line !== ""),
    stderrText: () => stderr,
    close,
    async [Symbol.asyncDispose]() {
      await close().catch(() => {});
    },
  };
}

/** The `session/initialize` a test editor sends: protocol 1, no file system, no terminal. */
export function initializeRequest(
  capabilities: acp.ClientCapabilities = {},
): acp.InitializeRequest {
  return { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: capabilities };
}

/** The text of every `agent_message_chunk` of `sessionId`, joined. */
export function agentText(updates: readonly acp.SessionNotification[], sessionId: string): string {
  let text = "";
  for (const { sessionId: id, update } of updates) {
    if (id !== sessionId || update.sessionUpdate !== "agent_message_chunk") continue;
    if (update.content.type === "text") text += update.content.text;
  }
  return text;
}
