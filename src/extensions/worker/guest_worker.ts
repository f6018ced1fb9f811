/**
 * The entry point of a guest worker: one QuickJS engine, one job at a time.
 * `ctx` calls block on `Atomics.wait` while the main thread does the I/O and
 * posts the reply on the shared port (read with `receiveMessageOnPort`), so
 * guest code sees synchronous calls without asyncify.
 *
 * @module
 */

import { parentPort, receiveMessageOnPort } from "node:worker_threads";
import type { QuickJSWASMModule } from "quickjs-emscripten-core";
import {
  CONTROL_INTERRUPT,
  CONTROL_OUTPUT,
  CONTROL_REPLY,
  eventSize,
  type GuestJob,
  type JobOutcome,
  OUTPUT_WINDOW_CHARS,
  parseGuestJob,
  parseWorkerInit,
  type WorkerInit,
  type WorkerMessage,
} from "../host_protocol.ts";
import { createGuest, disposeGuest, type Guest, runJob } from "./guest_runtime.ts";
import { createBoundedMemory, loadQuickJs } from "./quickjs_engine.ts";
import { splitOutput } from "../../host/output_steps.ts";
import { errorMessage } from "../../base/unknown.ts";

type StopReason = "interrupted" | "timeout" | "memory";

interface Running {
  readonly id: number;
  readonly deadline: number | null;
  stop: StopReason | null;
}

const INTERRUPTED_REPLY = JSON.stringify({ e: { name: "Error", message: "interrupted" } });
/** Poll interval while blocked on a reply: only a safety net, the host always notifies. */
const REPLY_POLL_MS = 1000;
/** Poll interval while waiting for room for output: bounds how late a deadline is seen. */
const OUTPUT_POLL_MS = 50;

let init: WorkerInit | null = null;
let engine: QuickJSWASMModule | null = null;
/** The engine's linear memory (a stable object; its buffer is replaced when it grows). */
let memory: WebAssembly.Memory | null = null;
/** Set once the memory refused to grow past the cap: the job in progress hit the limit. */
let memoryExhausted = false;
let control: Int32Array<ArrayBufferLike> = new Int32Array(0);
let running: Running | null = null;
let spare: Guest | null = null;

function send(message: WorkerMessage): void {
  init?.port.postMessage(message);
}

function heapBytes(): number {
  return memory?.buffer.byteLength ?? 0;
}

function stopReason(job: Running): StopReason | null {
  if (job.stop !== null) return job.stop;
  if (Atomics.load(control, CONTROL_INTERRUPT) === job.id) job.stop = "interrupted";
  else if (job.deadline !== null && Date.now() > job.deadline) job.stop = "timeout";
  else if (memoryExhausted) job.stop = "memory";
  return job.stop;
}

function hostCall(name: string, argsJson: string): string {
  const job = running;
  if (job === null || init === null || stopReason(job) !== null) return INTERRUPTED_REPLY;
  Atomics.store(control, CONTROL_REPLY, 0);
  send({ type: "call", id: job.id, name, argsJson });
  for (;;) {
    const reply = receiveMessageOnPort(init.port);
    if (reply !== undefined) {
      return typeof reply.message === "string" ? reply.message : INTERRUPTED_REPLY;
    }
    Atomics.wait(control, CONTROL_REPLY, 0, REPLY_POLL_MS);
  }
}

/**
 * Blocks until the host has room for `size` more of output (the window of
 * {@link OUTPUT_WINDOW_CHARS}); false once the job must stop, whose output
 * would be dropped anyway. The host wakes the guest when it writes and when
 * it interrupts.
 */
function awaitRoom(job: Running, size: number): boolean {
  for (;;) {
    if (stopReason(job) !== null) return false;
    const pending = Atomics.load(control, CONTROL_OUTPUT);
    if (pending === 0 || pending + size <= OUTPUT_WINDOW_CHARS) return true;
    Atomics.wait(control, CONTROL_OUTPUT, pending, OUTPUT_POLL_MS);
  }
}

/** Sends a live event; `ctx.log` text ends with a newline and goes in pieces, each within the window. */
function emitEvent(name: string, text: string): void {
  const job = running;
  if (job === null) return;
  const pieces = name === "log" ? splitOutput(text.endsWith("\n") ? text : `${text}\n`) : [text];
  for (const piece of pieces) {
    const size = eventSize(piece);
    if (!awaitRoom(job, size)) return;
    Atomics.add(control, CONTROL_OUTPUT, size);
    send({ type: "event", id: job.id, name, text: piece });
  }
}

function newGuest(): Guest {
  if (engine === null || init === null) throw new Error("the guest worker is not initialised");
  return createGuest(engine, init.limits, {
    hostCall,
    emit: emitEvent,
    shouldInterrupt: () => running !== null && stopReason(running) !== null,
  });
}

function execute(job: GuestJob, guest: Guest): JobOutcome {
  const state: Running = {
    id: job.id,
    deadline: job.timeoutMs === null ? null : Date.now() + job.timeoutMs,
    stop: null,
  };
  running = state;
  try {
    const resultJson = runJob(guest, job);
    // A guest that returns right after an interrupted host call never polls the
    // handler again: an interrupt still wins over its value.
    const stop = stopReason(state);
    return stop === null ? { kind: "value", resultJson } : { kind: stop };
  } finally {
    running = null;
  }
}

/**
 * Why the engine failed, for the host. V8's own stack overflow means QuickJS's
 * stack check came too late, which deep brackets in code compiled at run time
 * cause (docs/extensions.md, "Limits").
 */
function crashMessage(error: unknown): string {
  if (error instanceof RangeError && /call stack/i.test(error.message)) {
    return "it ran out of stack: code nested too deeply, such as brackets more than about 500 levels deep in eval or new Function";
  }
  return errorMessage(error);
}

function handleJob(job: GuestJob): void {
  let outcome: JobOutcome;
  let retire = false;
  let guest: Guest | null = spare;
  spare = null;
  try {
    guest ??= newGuest();
    outcome = execute(job, guest);
  } catch (error) {
    // A WebAssembly trap or an emscripten abort leaves the module unusable; one
    // after the memory refused to grow is the memory limit at work.
    outcome = memoryExhausted
      ? { kind: "memory" }
      : { kind: "crashed", message: crashMessage(error) };
    retire = true;
  }
  const limit = init?.limits.memoryBytes ?? 0;
  if (memoryExhausted || heapBytes() > limit / 2) {
    retire = true; // linear memory never shrinks: a fresh worker gives it back
  }
  if (!retire && guest !== null) {
    try {
      disposeGuest(guest);
    } catch {
      retire = true; // QuickJS aborts on a leaked handle: the module is unusable
    }
  }
  send({ type: "done", id: job.id, outcome, retire });
  if (retire) return;
  try {
    spare = newGuest();
    send({ type: "ready" });
  } catch {
    // The next job reports the failure as a crash, and the host retires this worker.
  }
}

async function start(message: WorkerInit): Promise<void> {
  init = message;
  control = new Int32Array(message.control);
  memory = createBoundedMemory(message.limits.memoryBytes, () => (memoryExhausted = true));
  engine = await loadQuickJs(memory);
  spare = newGuest();
  send({ type: "ready" });
}

// Pitfall: an engine abort prints "Aborted(…)" through emscripten's bound
// console.error straight to the process's stderr; the host reports crashes itself.
Reflect.set(globalThis.console, "error", () => {});

parentPort?.on("message", (data: unknown) => {
  if (init === null) {
    const message = parseWorkerInit(data);
    if (message !== null) void start(message);
    return;
  }
  const job = parseGuestJob(data);
  if (job !== null) handleJob(job);
});
