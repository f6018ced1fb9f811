/**
 * The main-thread handle of one guest worker: starts it, runs one job at a
 * time, answers its host calls, forwards its live events, interrupts it, and
 * terminates it when it stops answering.
 *
 * @module
 */

import { MessageChannel, type MessagePort, Worker } from "node:worker_threads";
import {
  CONTROL_INTERRUPT,
  CONTROL_LENGTH,
  CONTROL_OUTPUT,
  CONTROL_REPLY,
  eventSize,
  type GuestJob,
  type GuestLimits,
  type JobOutcome,
  parseWorkerMessage,
  type WorkerInit,
  type WorkerMessage,
} from "./host_protocol.ts";
import { createYieldPoint } from "../host/output_steps.ts";
import { errorMessage } from "../base/unknown.ts";

/** How long an interrupted guest may take to stop before its worker is terminated. */
export const HARD_STOP_MS = 1000;

/** How a job talks to the rest of the host while it runs. */
export interface JobHandlers {
  /** Runs a host call; resolves to the reply JSON and never rejects. */
  call(name: string, argsJson: string): Promise<string>;
  /** A live event (`log`, `notify`). */
  event(name: string, text: string): void;
}

/** A job's outcome, and whether its worker may take another job. */
export interface JobReport {
  readonly outcome: JobOutcome;
  readonly reusable: boolean;
}

/** A job as the pool hands it over: everything but the id the handle assigns. */
export type JobRequest = GuestJob extends infer J ? J extends GuestJob ? Omit<J, "id"> : never
  : never;

const INTERRUPTED_REPLY = JSON.stringify({ e: { name: "Error", message: "interrupted" } });

interface ActiveJob {
  readonly id: number;
  readonly handlers: JobHandlers;
  readonly finish: (report: JobReport) => void;
  /** True once the pending host call (if any) was answered. */
  answered: boolean;
  /** Live events not written yet, in order (bounded by the worker's output window). */
  readonly events: { readonly name: string; readonly text: string }[];
  /** True while {@link GuestWorkerHandle.drain} writes the events. */
  draining: boolean;
  /** The outcome, once it came; given once the events before it were written. */
  report: JobReport | null;
  /** True once interrupted: later output is dropped. */
  interrupted: boolean;
}

/** One guest worker (a resource: {@link terminate} it when done). */
export class GuestWorkerHandle {
  readonly #worker: Worker;
  readonly #port: MessagePort;
  readonly #control: Int32Array<SharedArrayBuffer>;
  readonly #ready: Promise<void>;
  #markReady: () => void = () => {};
  #failure: string | null = null;
  #prepared = false;
  #active: ActiveJob | null = null;
  #nextId = 1;
  /** Shared by every drain: a steady stream of events yields as often as one long drain. */
  readonly #yieldPoint = createYieldPoint();

  constructor(limits: GuestLimits) {
    const channel = new MessageChannel();
    this.#port = channel.port1;
    this.#control = new Int32Array(new SharedArrayBuffer(CONTROL_LENGTH * 4));
    this.#ready = new Promise((resolve) => (this.#markReady = resolve));
    this.#worker = new Worker(new URL("./worker/guest_worker.ts", import.meta.url));
    this.#port.on("message", (data: unknown) => this.#onMessage(parseWorkerMessage(data)));
    this.#worker.on("error", (error: unknown) => this.#fail(error));
    this.#worker.on("exit", () => this.#fail(new Error("the guest worker exited")));
    const init: WorkerInit = {
      type: "init",
      port: channel.port2,
      control: this.#control.buffer,
      limits,
    };
    this.#worker.postMessage(init, [channel.port2]);
    this.#idle();
  }

  /** False once the worker failed or was terminated. */
  get alive(): boolean {
    return this.#failure === null;
  }

  /** True when a fresh guest waits for the next job (no preparation on its critical path). */
  get prepared(): boolean {
    return this.#prepared && this.#failure === null;
  }

  /** Runs one job; `signal` interrupts it (the guest stops, host calls are cancelled). */
  async run(request: JobRequest, handlers: JobHandlers, signal: AbortSignal): Promise<JobReport> {
    this.#busy();
    try {
      await this.#ready;
      if (this.#failure !== null) return this.#crashed();
      const id = this.#nextId++;
      const done = new Promise<JobReport>((finish) => {
        this.#active = {
          id,
          handlers,
          finish,
          answered: true,
          events: [],
          draining: false,
          report: null,
          interrupted: false,
        };
      });
      const onAbort = () => this.#interrupt(id);
      signal.addEventListener("abort", onAbort, { once: true });
      const job: GuestJob = { ...request, id };
      this.#prepared = false;
      this.#worker.postMessage(job);
      if (signal.aborted) onAbort();
      try {
        return await done;
      } finally {
        signal.removeEventListener("abort", onAbort);
        this.#active = null;
      }
    } finally {
      this.#idle();
    }
  }

  /** Stops the worker at once. */
  terminate(): void {
    if (this.#failure === null) this.#failure = "the guest worker was terminated";
    this.#port.close();
    void this.#worker.terminate();
    this.#finish({ outcome: { kind: "interrupted" }, reusable: false });
  }

  #crashed(): JobReport {
    return {
      outcome: { kind: "crashed", message: this.#failure ?? "the guest worker failed" },
      reusable: false,
    };
  }

  #busy(): void {
    this.#worker.ref();
    this.#port.ref();
  }

  #idle(): void {
    this.#worker.unref();
    this.#port.unref();
  }

  #fail(error: unknown): void {
    if (this.#failure !== null) return;
    this.#failure = errorMessage(error);
    this.#markReady();
    this.#finish(this.#crashed());
  }

  #finish(report: JobReport): void {
    const active = this.#active;
    this.#active = null;
    active?.finish(report);
  }

  #interrupt(id: number): void {
    Atomics.store(this.#control, CONTROL_INTERRUPT, id);
    Atomics.notify(this.#control, CONTROL_OUTPUT); // a guest waiting for room sees the stop
    const active = this.#active;
    if (active === null || active.id !== id) return;
    active.interrupted = true;
    this.#drop(active);
    if (!active.answered) this.#reply(active, INTERRUPTED_REPLY);
    const timer = setTimeout(() => {
      if (this.#active?.id === id) this.terminate();
    }, HARD_STOP_MS);
    Deno.unrefTimer(timer);
  }

  #reply(active: ActiveJob, reply: string): void {
    if (active.answered || this.#active !== active) return;
    active.answered = true;
    this.#port.postMessage(reply);
    Atomics.store(this.#control, CONTROL_REPLY, 1);
    Atomics.notify(this.#control, CONTROL_REPLY);
  }

  /** Gives back the window the worker counted for an event (written or dropped) and wakes it. */
  #release(text: string): void {
    Atomics.sub(this.#control, CONTROL_OUTPUT, eventSize(text));
    Atomics.notify(this.#control, CONTROL_OUTPUT);
  }

  /** Drops the events not written yet. */
  #drop(active: ActiveJob): void {
    for (const event of active.events.splice(0)) this.#release(event.text);
  }

  /**
   * Writes the job's events in order, yielding to the event loop now and then
   * so a signal is seen even while each write blocks on a slow terminal, then
   * gives the outcome once nothing is left before it.
   */
  async #drain(active: ActiveJob): Promise<void> {
    if (active.draining) return;
    active.draining = true;
    try {
      for (let event = active.events.shift(); event !== undefined; event = active.events.shift()) {
        try {
          if (!active.interrupted) active.handlers.event(event.name, event.text);
        } catch {
          // A failing front end must not stall the guest, which waits for this room.
        } finally {
          this.#release(event.text);
        }
        const pause = this.#yieldPoint();
        if (pause !== null) await pause;
      }
    } finally {
      active.draining = false;
    }
    if (active.report !== null && this.#active === active) this.#finish(active.report);
  }

  #onMessage(message: WorkerMessage | null): void {
    if (message === null) return;
    if (message.type === "ready") {
      this.#prepared = true;
      this.#markReady();
      return;
    }
    const active = this.#active;
    if (active === null || message.id !== active.id) {
      if (message.type === "event") this.#release(message.text);
      return;
    }
    switch (message.type) {
      case "call":
        active.answered = false;
        void active.handlers.call(message.name, message.argsJson).then((reply) =>
          this.#reply(active, reply)
        );
        break;
      case "event":
        if (active.interrupted) this.#release(message.text);
        else {
          active.events.push({ name: message.name, text: message.text });
          void this.#drain(active);
        }
        break;
      case "done":
        active.report = { outcome: message.outcome, reusable: !message.retire };
        if (active.interrupted) this.#drop(active);
        void this.#drain(active);
        break;
      default: {
        const never: never = message;
        throw new Error(`unexpected worker message ${JSON.stringify(never)}`);
      }
    }
  }
}
