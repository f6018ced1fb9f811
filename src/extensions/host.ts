/**
 * The extension host: a small pool of guest workers, each running QuickJS
 * (sync build) in its own thread, one invocation at a time, every invocation
 * in a fresh runtime and context. See `docs/extensions.md` ("Runtime design")
 * for why workers and not asyncify, and for the measured costs.
 *
 * - Lazy: no worker (and no WASM) exists until the first invocation or
 *   inspection, and the worker and bridge modules (Node
 *   compatibility, `ignore`) are imported only then, so a run without user
 *   extensions pays nothing; idle workers never keep the process alive.
 * - An abort interrupts the guest (tight loops included) through a shared
 *   flag its interrupt handler polls, cancels the host call in flight, and
 *   terminates the worker if the guest is not stopped within a second.
 * - Limits: 64 KiB of QuickJS stack, a hard cap on the engine's linear memory;
 *   a worker that crashed, hit the cap or grew too far is replaced, never reused.
 *
 * @module
 */

import type { Bridge } from "./bridge/bridge.ts";
import { FULL_ACCESS, type Grant } from "./capabilities.ts";
import { type GuestResult, parseGuestResult } from "./guest_result.ts";
import type { GuestWorkerHandle, JobHandlers, JobRequest } from "./guest_worker_handle.ts";
import type { GuestLimits } from "./host_protocol.ts";
import { type ExtensionRunContext, guestContextJson } from "./run_context.ts";

/** QuickJS stack per runtime: the largest measured safe on V8's default thread stack. */
export const GUEST_STACK_BYTES = 64 * 1024;

/** Default cap on a worker's linear memory (the engine's whole heap). */
export const DEFAULT_MEMORY_LIMIT_BYTES = 256 * 1024 * 1024;

/** How long a module's top-level code may run when it is loaded to check its exports. */
export const LOAD_TIMEOUT_MS = 2000;

/** Options of {@link ExtensionHost}. */
export interface ExtensionHostOptions {
  /**
   * The most linear memory one guest worker may have (at least 16 MiB, what
   * the engine starts with). @default {DEFAULT_MEMORY_LIMIT_BYTES}
   */
  readonly memoryLimitBytes?: number;
  /**
   * Idle workers kept for the next invocation (more start only for
   * concurrent invocations). @default {1}
   */
  readonly maxIdleWorkers?: number;
  /**
   * QuickJS stack per runtime. Above 64 KiB, deep recursion can exhaust V8's
   * thread stack first and crash the engine (the worker is then replaced).
   * @default {GUEST_STACK_BYTES}
   */
  readonly stackBytes?: number;
}

/** One call of an export of a user module. */
export interface GuestCall {
  /** The module's source text (cached by discovery, read once per process). */
  readonly source: string;
  /** The export to call: `execute`, or a hook point. */
  readonly entry: string;
  /** The arguments after `ctx`, as plain JSON data. */
  readonly args: readonly unknown[];
  readonly context: ExtensionRunContext;
  /** Live output of `ctx.log` and `ctx.system.exec`. */
  readonly output: (text: string) => void;
  readonly signal: AbortSignal;
  /** What the extension may reach through `ctx` (`capabilities.ts`); full access when absent. */
  readonly grant?: Grant;
  /** A deadline of its own (the `afterRun` grace period); none by default. */
  readonly timeoutMs?: number;
}

const NO_OUTPUT = () => {};

/** The modules imported on first use. */
interface LazyModules {
  readonly GuestWorkerHandle: typeof GuestWorkerHandle;
  readonly createBridge: (context: ExtensionRunContext) => Bridge;
}

async function importModules(): Promise<LazyModules> {
  const [worker, bridge] = await Promise.all([
    import("./guest_worker_handle.ts"),
    import("./bridge/bridge.ts"),
  ]);
  return { GuestWorkerHandle: worker.GuestWorkerHandle, createBridge: bridge.createBridge };
}

/** The pool of guest workers (a resource: close it when the run ends). */
export class ExtensionHost implements Disposable, AsyncDisposable {
  readonly limits: GuestLimits;
  readonly #maxIdle: number;
  readonly #idle: GuestWorkerHandle[] = [];
  readonly #all = new Set<GuestWorkerHandle>();
  readonly #bridges = new WeakMap<ExtensionRunContext, Bridge>();
  #modules: Promise<LazyModules> | null = null;
  #closed = false;

  constructor(options: ExtensionHostOptions = {}) {
    const {
      memoryLimitBytes = DEFAULT_MEMORY_LIMIT_BYTES,
      maxIdleWorkers = 1,
      stackBytes = GUEST_STACK_BYTES,
    } = options;
    this.limits = { stackBytes, memoryBytes: memoryLimitBytes };
    this.#maxIdle = maxIdleWorkers;
  }

  /** How many workers exist now (busy or idle). */
  get workerCount(): number {
    return this.#all.size;
  }

  /** Runs a module's top-level code in a fresh context and reports its exports. */
  inspect(source: string, signal: AbortSignal): Promise<GuestResult> {
    const request: JobRequest = { type: "inspect", source, timeoutMs: LOAD_TIMEOUT_MS };
    const handlers = { call: () => Promise.resolve("{}"), event: NO_OUTPUT };
    return this.#run(request, () => handlers, signal);
  }

  /** Calls one export of a module in a fresh context with a fresh `ctx`. */
  call(call: GuestCall): Promise<GuestResult> {
    const invocation = {
      signal: call.signal,
      output: call.output,
      grant: call.grant ?? FULL_ACCESS,
    };
    const request: JobRequest = {
      type: "call",
      source: call.source,
      entry: call.entry,
      contextJson: guestContextJson(call.context),
      argsJson: JSON.stringify(call.args),
      timeoutMs: call.timeoutMs ?? null,
    };
    return this.#run(request, (modules) => {
      const bridge = this.#bridgeFor(call.context, modules);
      return {
        call: (name, argsJson) => bridge.call(name, argsJson, invocation),
        event: (name, text) => bridge.event(name, text, invocation),
      };
    }, call.signal);
  }

  /** Terminates every worker; later invocations fail. */
  close(): void {
    this.#closed = true;
    this.#idle.length = 0;
    for (const worker of this.#all) worker.terminate();
    this.#all.clear();
  }

  [Symbol.dispose](): void {
    this.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    this.close();
    return Promise.resolve();
  }

  #load(): Promise<LazyModules> {
    this.#modules ??= importModules();
    return this.#modules;
  }

  #bridgeFor(context: ExtensionRunContext, modules: LazyModules): Bridge {
    let bridge = this.#bridges.get(context);
    if (bridge === undefined) {
      bridge = modules.createBridge(context);
      this.#bridges.set(context, bridge);
    }
    return bridge;
  }

  #spawn(modules: LazyModules): GuestWorkerHandle {
    const worker = new modules.GuestWorkerHandle(this.limits);
    this.#all.add(worker);
    return worker;
  }

  /** An idle worker, preferring one whose fresh guest is already prepared; spawns when none is idle. */
  #lease(modules: LazyModules): GuestWorkerHandle {
    for (const worker of this.#idle.filter((candidate) => !candidate.alive)) {
      this.#all.delete(worker);
    }
    const idle = this.#idle.filter((candidate) => candidate.alive);
    const chosen = idle.find((candidate) => candidate.prepared) ?? idle[0] ?? this.#spawn(modules);
    this.#idle.splice(0, this.#idle.length, ...idle.filter((candidate) => candidate !== chosen));
    return chosen;
  }

  async #run(
    request: JobRequest,
    handlers: (modules: LazyModules) => JobHandlers,
    signal: AbortSignal,
  ): Promise<GuestResult> {
    const modules = await this.#load();
    if (this.#closed) {
      return { kind: "stopped", reason: "crashed", message: "the extension host is closed" };
    }
    const worker = this.#lease(modules);
    const report = await worker.run(request, handlers(modules), signal);
    if (report.reusable && worker.alive && !this.#closed && this.#idle.length < this.#maxIdle) {
      this.#idle.push(worker);
    } else {
      worker.terminate();
      this.#all.delete(worker);
    }
    return parseGuestResult(report.outcome, this.limits);
  }
}
