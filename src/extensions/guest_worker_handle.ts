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
  CONTROL_REPLY,
  type GuestJob,
  type GuestLimits,
  type JobOutcome,
  parseWorkerMessage,
  type WorkerInit,
  type WorkerMessage,
} from "./host_protocol.ts";
import { errorMessage } from "../unknown.ts";

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
        this.#active = { id, handlers, finish, answered: true };
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
    const active = this.#active;
    if (active === null || active.id !== id) return;
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

  #onMessage(message: WorkerMessage | null): void {
    if (message === null) return;
    if (message.type === "ready") {
      this.#prepared = true;
      this.#markReady();
      return;
    }
    const active = this.#active;
    if (active === null || message.id !== active.id) return;
    switch (message.type) {
      case "call":
        active.answered = false;
        void active.handlers.call(message.name, message.argsJson).then((reply) =>
          this.#reply(active, reply)
        );
        break;
      case "event":
        active.handlers.event(message.name, message.text);
        break;
      case "done":
        this.#finish({ outcome: message.outcome, reusable: !message.retire });
        break;
      default: {
        const never: never = message;
        throw new Error(`unexpected worker message ${JSON.stringify(never)}`);
      }
    }
  }
}
