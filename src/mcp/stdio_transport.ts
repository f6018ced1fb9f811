/**
 * The stdio transport of MCP on `Deno.Command`, for the SDK's `Client`
 * (docs/mcp.md, "Lifecycle" and "Permissions").
 *
 * The SDK's own stdio transport spawns through Node's `child_process`: it
 * needs run permission for every server command and cannot start a process
 * group. This one runs `sh -c 'exec "$0" "$@"' COMMAND ARGS…` (the binary's
 * only run permission is `sh`, and `exec` leaves one process: the server) as
 * the leader of a new process group, registered with `process_group.ts` so
 * rienda's exit reaches it. The JSON-RPC framing (one message per line) and
 * its validation are the SDK's (`serializeMessage`, `deserializeMessage`).
 *
 * - Closing ends stdin, then SIGTERM to the group, SIGKILL after a grace.
 * - A message over {@link MAX_MESSAGE_BYTES} stops the server: no line is
 *   buffered without bound.
 * - The first {@link STDERR_KEPT_BYTES} of stderr are kept for diagnostics.
 *
 * @module
 */

import type { Transport } from "@modelcontextprotocol/sdk/shared/transport";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types";
// @ts-types="@modelcontextprotocol/sdk/shared/stdio"
import { deserializeMessage, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import { pumpOutput } from "../tools/output_pump.ts";
import { DRAIN_GRACE_MS, terminateGroup, trackProcessGroup } from "../tools/process_group.ts";

/** The longest line (one JSON-RPC message) a server may send: 10 MiB, the SDK's limit. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** How much of the server's stderr is kept. */
export const STDERR_KEPT_BYTES = 16 * 1024;

/** The shell program that execs the server in place (`$0` is the command). */
const EXEC_SCRIPT = 'exec "$0" "$@"';

/** How the server process ended: its exit code, or the signal that killed it. */
export interface ProcessExit {
  readonly code: number;
  readonly signal: string | null;
}

/** What {@link createStdioTransport} starts. */
export interface StdioServerOptions {
  readonly command: string;
  readonly args: readonly string[];
  /** The whole environment of the server (nothing else is inherited). */
  readonly env: Readonly<Record<string, string>>;
  /** An existing absolute directory. */
  readonly cwd: string;
}

/** A transport over a server process, with what is known of its end. */
export interface StdioTransport extends Transport {
  /** Settles once the process has ended (never before `start`). */
  readonly exited: Promise<ProcessExit>;
  /** The kept start of stderr, so far. */
  stderr(): string;
  /** Why rienda stopped the server itself (a message too long), or null. */
  stopReason(): string | null;
}

/** A transport that starts the server on `start()` and stops its process group on `close()`. */
export function createStdioTransport(options: StdioServerOptions): StdioTransport {
  let child: Deno.ChildProcess | undefined;
  let writer: WritableStreamDefaultWriter<Uint8Array> | undefined;
  let untrack = () => {};
  let closed = false;
  let stderr = () => "";
  let stopReason: string | null = null;
  let settleExit: (exit: ProcessExit) => void = () => {};
  const exited = new Promise<ProcessExit>((resolve) => settleExit = resolve);
  const encoder = new TextEncoder();

  const transport: StdioTransport = {
    exited,
    stderr: () => stderr(),
    stopReason: () => stopReason,
    // deno-lint-ignore require-await
    async start() {
      if (child !== undefined) throw new Error("the transport is started already");
      child = new Deno.Command("sh", {
        args: ["-c", EXEC_SCRIPT, options.command, ...options.args],
        cwd: options.cwd,
        clearEnv: true,
        env: { ...options.env },
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
        detached: true,
      }).spawn();
      const process = child;
      untrack = trackProcessGroup(process.pid);
      writer = process.stdin.getWriter();
      const errors = pumpOutput(process.stderr, STDERR_KEPT_BYTES);
      stderr = () => errors.collected();
      const stdout = readMessages(process.stdout, {
        message: (message) => transport.onmessage?.(message),
        error: (error) => transport.onerror?.(error),
        tooLong: () => {
          stopReason = `sent a message over ${MAX_MESSAGE_BYTES} bytes, so it was stopped`;
          void transport.close();
        },
      });
      process.status.then(async (status) => {
        // Messages written just before the end still arrive, unless a grandchild holds the pipe.
        await Promise.race([stdout, delay(DRAIN_GRACE_MS)]);
        untrack();
        settleExit({ code: status.code, signal: status.signal });
        void transport.close();
      });
      // The server closed its stdout: nothing more can arrive, so it is as good as gone.
      stdout.then(() => void transport.close());
    },
    async send(message: JSONRPCMessage) {
      if (writer === undefined || closed) throw new Error("the server is not running");
      await writer.write(encoder.encode(serializeMessage(message)));
    },
    async close() {
      if (closed) return;
      closed = true;
      const process = child;
      if (process !== undefined) {
        await writer?.close().catch(() => {});
        await terminateGroup(process.pid, process.status);
        await process.status;
      }
      transport.onclose?.();
    },
  };
  return transport;
}

/** What {@link readMessages} reports. */
interface MessageSink {
  message(message: JSONRPCMessage): void;
  /** A line that is not a JSON-RPC message. */
  error(error: Error): void;
  /** A line passed {@link MAX_MESSAGE_BYTES}; reading stops. */
  tooLong(): void;
}

/**
 * Splits `stream` into lines, each a JSON-RPC message; settles at the end of
 * the stream. Only the unfinished line is buffered, and each byte is looked at once.
 */
async function readMessages(stream: ReadableStream<Uint8Array>, sink: MessageSink): Promise<void> {
  const decoder = new TextDecoder();
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const emit = (parts: readonly Uint8Array[]) => {
    const line = decoder.decode(concat(parts)).replace(/\r$/, "");
    if (line.trim() === "") return;
    try {
      sink.message(deserializeMessage(line));
    } catch (error) {
      sink.error(error instanceof Error ? error : new Error(String(error)));
    }
  };
  try {
    for await (const chunk of stream) {
      let start = 0;
      for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
        emit([...pending, chunk.subarray(start, end)]);
        pending = [];
        pendingBytes = 0;
        start = end + 1;
      }
      if (start < chunk.length) {
        pending.push(chunk.subarray(start));
        pendingBytes += chunk.length - start;
      }
      if (pendingBytes > MAX_MESSAGE_BYTES) {
        sink.tooLong();
        return;
      }
    }
  } catch {
    // The pipe broke: the process is gone, which the exit status reports.
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const whole = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    whole.set(part, offset);
    offset += part.length;
  }
  return whole;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    Deno.unrefTimer(timer);
  });
}
