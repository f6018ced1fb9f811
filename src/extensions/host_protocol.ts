/**
 * The messages between the extension host (main thread) and a guest worker.
 *
 * - main → worker, on the worker's own channel: {@link WorkerInit}, {@link GuestJob}.
 * - worker → main, on the shared port: {@link WorkerMessage} (ready, host calls,
 *   live events, job outcomes), in order, so a `ctx.log` never arrives after
 *   the outcome of its job.
 * - main → worker, on the same port: one reply string per host call, read
 *   synchronously by the worker while it blocks on {@link CONTROL_REPLY}.
 * - Live output is flow-controlled through {@link CONTROL_OUTPUT}: the worker
 *   blocks while more than {@link OUTPUT_WINDOW_CHARS} wait to be written.
 *
 * @module
 */

import { MessagePort } from "node:worker_threads";
import { isRecord } from "../base/unknown.ts";

/** Index in the control array: set to 1 by the host once a reply is on the port. */
export const CONTROL_REPLY = 0;
/** Index in the control array: the id of the job the host wants interrupted. */
export const CONTROL_INTERRUPT = 1;
/**
 * Index in the control array: the size of the live events the host has not
 * written yet (see {@link eventSize}); the worker adds, the host subtracts.
 */
export const CONTROL_OUTPUT = 2;
/** Length of the control array (`Int32Array` over a `SharedArrayBuffer`). */
export const CONTROL_LENGTH = 3;

/**
 * How much live output (`ctx.log`, exec output is the host's own) may wait
 * for the host to write it: past this the guest blocks until the host caught
 * up, so a slow terminal slows the guest instead of filling memory.
 */
export const OUTPUT_WINDOW_CHARS = 1024 * 1024;

/** What one event of `text` counts in the window: its text and the cost of a message. */
export function eventSize(text: string): number {
  return text.length + 64;
}

/** Limits of every guest runtime. */
export interface GuestLimits {
  /** QuickJS stack: 64 KiB is the largest size measured safe on V8's default stack. */
  readonly stackBytes: number;
  /** The maximum of the engine's linear memory (at least 16 MiB): growth past it is refused. */
  readonly memoryBytes: number;
}

/** The first message a worker receives. */
export interface WorkerInit {
  readonly type: "init";
  readonly port: MessagePort;
  readonly control: SharedArrayBuffer;
  readonly limits: GuestLimits;
}

/** One invocation: load a module and report its exports, or call one of them. */
export type GuestJob =
  | {
    readonly type: "inspect";
    readonly id: number;
    readonly source: string;
    readonly timeoutMs: number;
  }
  | {
    readonly type: "call";
    readonly id: number;
    readonly source: string;
    /** The export to call, such as `execute` or `beforeToolExecute`. */
    readonly entry: string;
    /** JSON of the guest's `ctx` data (workdir, session, agent, config). */
    readonly contextJson: string;
    /** JSON array of the arguments after `ctx`. */
    readonly argsJson: string;
    /** A deadline for this call in milliseconds, or null for none. */
    readonly timeoutMs: number | null;
  };

/** How a guest job ended, as the worker reports it. */
export type JobOutcome =
  /** `resultJson` is the guest's encoding of its value (see `worker/guest_runtime.ts`). */
  | { readonly kind: "value"; readonly resultJson: string }
  | { readonly kind: "interrupted" }
  | { readonly kind: "timeout" }
  | { readonly kind: "memory" }
  | { readonly kind: "crashed"; readonly message: string };

/** What a worker sends on the shared port. */
export type WorkerMessage =
  /** A fresh guest is prepared: sent after start-up and after every job. */
  | { readonly type: "ready" }
  | { readonly type: "call"; readonly id: number; readonly name: string; readonly argsJson: string }
  | { readonly type: "event"; readonly id: number; readonly name: string; readonly text: string }
  | {
    readonly type: "done";
    readonly id: number;
    readonly outcome: JobOutcome;
    /** True when the worker must not be reused (crash, memory cap, heap grown too far). */
    readonly retire: boolean;
  };

function parseOutcome(value: unknown): JobOutcome | null {
  if (!isRecord(value)) return null;
  switch (value.kind) {
    case "value":
      return typeof value.resultJson === "string"
        ? { kind: "value", resultJson: value.resultJson }
        : null;
    case "interrupted":
    case "timeout":
    case "memory":
      return { kind: value.kind };
    case "crashed":
      return typeof value.message === "string" ? { kind: "crashed", message: value.message } : null;
    default:
      return null;
  }
}

/** Checks a message that arrived from a worker; null when it is not one of ours. */
export function parseWorkerMessage(value: unknown): WorkerMessage | null {
  if (!isRecord(value)) return null;
  switch (value.type) {
    case "ready":
      return { type: "ready" };
    case "call":
    case "event": {
      const { id, name } = value;
      if (typeof id !== "number" || typeof name !== "string") return null;
      if (value.type === "call") {
        return typeof value.argsJson === "string"
          ? { type: "call", id, name, argsJson: value.argsJson }
          : null;
      }
      return typeof value.text === "string" ? { type: "event", id, name, text: value.text } : null;
    }
    case "done": {
      const outcome = parseOutcome(value.outcome);
      if (typeof value.id !== "number" || outcome === null) return null;
      return { type: "done", id: value.id, outcome, retire: value.retire === true };
    }
    default:
      return null;
  }
}

function isTimeout(value: unknown): value is number | null {
  return value === null || (typeof value === "number" && value >= 0);
}

/** Checks a job that arrived from the host; null when it is not one. */
export function parseGuestJob(value: unknown): GuestJob | null {
  if (!isRecord(value) || typeof value.id !== "number" || typeof value.source !== "string") {
    return null;
  }
  const { id, source, timeoutMs } = value;
  if (value.type === "inspect") {
    return typeof timeoutMs === "number" ? { type: "inspect", id, source, timeoutMs } : null;
  }
  if (value.type !== "call" || !isTimeout(timeoutMs)) return null;
  const { entry, contextJson, argsJson } = value;
  if (typeof entry !== "string" || typeof contextJson !== "string") return null;
  if (typeof argsJson !== "string") return null;
  return { type: "call", id, source, entry, contextJson, argsJson, timeoutMs };
}

/** Checks the init message on the worker side; null when it is not one. */
export function parseWorkerInit(value: unknown): WorkerInit | null {
  if (!isRecord(value) || value.type !== "init") return null;
  const { port, control, limits } = value;
  if (!(port instanceof MessagePort) || !(control instanceof SharedArrayBuffer)) return null;
  if (!isRecord(limits)) return null;
  const { stackBytes, memoryBytes } = limits;
  if (typeof stackBytes !== "number" || typeof memoryBytes !== "number") return null;
  return { type: "init", port, control, limits: { stackBytes, memoryBytes } };
}
