/**
 * One fresh QuickJS runtime and context with `ctx` built, used for exactly
 * one job and then disposed. The worker prepares the next one while
 * idle, so a job pays only for evaluating the user's module and its call.
 *
 * A job's outcome is encoded as JSON for the host: `{"k":"json","v":…}`,
 * `{"k":"undefined"}`, `{"k":"opaque","type":…}` (functions, symbols, values
 * JSON cannot encode) or `{"k":"threw","name","message","stack"}`.
 *
 * @module
 */

import type {
  QuickJSContext,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSWASMModule,
} from "quickjs-emscripten-core";
import type { GuestJob, GuestLimits } from "../host_protocol.ts";
import { Lifetime } from "quickjs-emscripten-core";
import {
  createCtx,
  type CtxHooks,
  disposeCtx,
  fillCtx,
  type GuestCtx,
  kindOf,
  parse,
  readProperty,
  resolvePromise,
  stringify,
} from "./guest_ctx.ts";
import {
  ESM_FACTORY_SOURCE,
  INSPECT_SOURCE,
  MODULE_FILE,
  PRELUDE_FILE,
  wrapModuleSource,
} from "./guest_prelude.ts";
import { findDeepNesting, MAX_SOURCE_NESTING } from "./source_nesting.ts";

/** What a guest needs from the worker around it. */
export interface GuestHooks extends CtxHooks {
  /** Polled by QuickJS while guest code runs; true stops it with an uncatchable error. */
  shouldInterrupt(): boolean;
}

/** A fresh runtime and context with `ctx` built, ready for one job. */
export interface Guest {
  readonly runtime: QuickJSRuntime;
  readonly context: QuickJSContext;
  readonly bridge: GuestCtx;
}

/** The guest's exception as the host reports it. */
function describeFailure(context: QuickJSContext, error: QuickJSHandle): string {
  let dumped: unknown;
  try {
    dumped = context.dump(error);
  } catch {
    dumped = { message: "a value that cannot be shown was thrown" };
  }
  let name = "Error";
  let message = typeof dumped === "string" ? dumped : String(dumped);
  let stack = "";
  if (typeof dumped === "object" && dumped !== null) {
    if ("name" in dumped && typeof dumped.name === "string") name = dumped.name;
    message = "message" in dumped && typeof dumped.message === "string"
      ? dumped.message
      : "a value that is not an Error was thrown";
    if ("stack" in dumped && typeof dumped.stack === "string") stack = dumped.stack;
  }
  return JSON.stringify({ k: "threw", name, message, stack });
}

/** The failure of a guest step, its error handle consumed. */
function failureOf(context: QuickJSContext, error: QuickJSHandle): { failure: string } {
  const failure = describeFailure(context, error);
  error.dispose();
  return { failure };
}

function unwrap(context: QuickJSContext, result: ReturnType<QuickJSContext["evalCode"]>) {
  if (result.error === undefined) return result.value;
  const detail = describeFailure(context, result.error);
  result.error.dispose();
  throw new Error(`the extension glue failed: ${detail}`);
}

/** Creates a runtime and context with `ctx` built from host functions, nothing on the global object. */
export function createGuest(
  engine: QuickJSWASMModule,
  limits: GuestLimits,
  hooks: GuestHooks,
): Guest {
  const runtime = engine.newRuntime({
    maxStackSizeBytes: limits.stackBytes,
    memoryLimitBytes: limits.memoryBytes,
    interruptHandler: () => hooks.shouldInterrupt(),
  });
  const context = runtime.newContext();
  return { runtime, context, bridge: createCtx(context, hooks) };
}

/** Frees a guest; QuickJS aborts the module here if a handle leaked, so callers catch. */
export function disposeGuest(guest: Guest): void {
  disposeCtx(guest.bridge);
  guest.context.dispose();
  guest.runtime.dispose();
}

/** Calls `fn`; a thrown exception becomes its `threw` encoding. */
function callGuest(
  guest: Guest,
  fn: QuickJSHandle,
  args: QuickJSHandle[],
  thisValue: QuickJSHandle = guest.context.undefined,
): { value: QuickJSHandle } | { failure: string } {
  const result = guest.context.callFunction(fn, thisValue, args);
  if (result.error === undefined) return { value: result.value };
  return failureOf(guest.context, result.error);
}

/** The JSON encoding of a returned value (see the module doc). */
function encodeValue(guest: Guest, value: QuickJSHandle): string {
  const type = guest.context.typeof(value);
  if (type === "undefined") return '{"k":"undefined"}';
  if (type === "function" || type === "symbol" || type === "bigint") {
    return JSON.stringify({ k: "opaque", type });
  }
  const json = stringify(guest.bridge, value);
  return json === null ? JSON.stringify({ k: "opaque", type }) : `{"k":"json","v":${json}}`;
}

/** Settles a promise by draining the job queue, then encodes its outcome. */
function settle(guest: Guest, promise: QuickJSHandle, entry: string): string {
  const { context, runtime } = guest;
  for (;;) {
    const ran = runtime.executePendingJobs();
    if (ran.error !== undefined) {
      const failure = describeFailure(context, ran.error);
      ran.error.dispose();
      return failure;
    }
    if (ran.value === 0) break;
  }
  const state = context.getPromiseState(promise);
  if (state.type === "pending") {
    const message = `${entry} returned a promise that never settled`;
    return JSON.stringify({ k: "threw", name: "Error", message, stack: "" });
  }
  if (state.type === "rejected") {
    const failure = describeFailure(context, state.error);
    state.error.dispose();
    return failure;
  }
  const text = encodeValue(guest, state.value);
  if (state.notAPromise !== true) state.value.dispose();
  return text;
}

/** A failure the host words itself (no guest frame to point at). */
function threw(name: string, message: string): string {
  return JSON.stringify({ k: "threw", name, message, stack: "" });
}

/** Steps that throw a guest error as a handle ({@link parse}, {@link fillCtx}) as a failure. */
function guarded(context: QuickJSContext, steps: () => string): string {
  try {
    return steps();
  } catch (error) {
    if (error instanceof Lifetime && error.alive) return failureOf(context, error).failure;
    throw error;
  }
}

/** The export's arguments: `ctx`, then the job's JSON arguments. */
function callArguments(guest: Guest, argsJson: string): QuickJSHandle[] {
  const { context, bridge } = guest;
  const list = parse(bridge, argsJson);
  try {
    const count = context.getLength(list) ?? 0;
    return Array.from({ length: count }, (_, index) => context.getProp(list, index));
  } finally {
    list.dispose();
  }
}

/** Calls the export with `ctx` filled in; a thenable it returns is settled first. */
function callExport(
  guest: Guest,
  job: Extract<GuestJob, { type: "call" }>,
  exported: QuickJSHandle,
  target: QuickJSHandle,
): string {
  const { context, bridge } = guest;
  fillCtx(bridge, job.contextJson);
  const args = callArguments(guest, job.argsJson);
  let result: { value: QuickJSHandle } | { failure: string };
  try {
    result = callGuest(guest, target, [bridge.ctx, ...args], exported);
  } finally {
    for (const handle of args) handle.dispose();
  }
  if ("failure" in result) return result.failure;
  const value = result.value;
  try {
    const type = context.typeof(value);
    if ((type !== "object" && type !== "function") || context.sameValue(value, context.null)) {
      return encodeValue(guest, value);
    }
    const then = readProperty(bridge, value, "then");
    if ("error" in then) return failureOf(context, then.error).failure;
    const thenable = context.typeof(then.value) === "function";
    then.value.dispose();
    if (!thenable) return encodeValue(guest, value);
    const promise = resolvePromise(bridge, value);
    if ("error" in promise) return failureOf(context, promise.error).failure;
    try {
      return settle(guest, promise.value, job.entry);
    } finally {
      promise.value.dispose();
    }
  } finally {
    value.dispose();
  }
}

function callJob(guest: Guest, job: Extract<GuestJob, { type: "call" }>, factory: QuickJSHandle) {
  const { context, bridge } = guest;
  const ran = callGuest(guest, factory, [bridge.module, bridge.exports]);
  if ("failure" in ran) return ran.failure;
  ran.value.dispose();
  return guarded(context, () => {
    const exported = readProperty(bridge, bridge.module, "exports");
    if ("error" in exported) return failureOf(context, exported.error).failure;
    try {
      const target = readProperty(bridge, exported.value, job.entry);
      if ("error" in target) return failureOf(context, target.error).failure;
      try {
        if (context.typeof(target.value) !== "function") {
          const found = kindOf(bridge, target.value);
          return threw(
            "TypeError",
            `module.exports.${job.entry} is not a function (found ${found})`,
          );
        }
        return callExport(guest, job, exported.value, target.value);
      } finally {
        target.value.dispose();
      }
    } finally {
      exported.value.dispose();
    }
  });
}

function inspectJob(guest: Guest, factory: QuickJSHandle): string {
  const { context } = guest;
  const inspect = context.evalCode(INSPECT_SOURCE, PRELUDE_FILE);
  if (inspect.error !== undefined) {
    const failure = describeFailure(context, inspect.error);
    inspect.error.dispose();
    return failure;
  }
  try {
    const result = callGuest(guest, inspect.value, [factory]);
    if ("failure" in result) return result.failure;
    const report = context.getString(result.value);
    result.value.dispose();
    return `{"k":"json","v":${report}}`;
  } finally {
    inspect.value.dispose();
  }
}

/** Sources this worker found to be ES modules: they skip the CommonJS attempt. */
const esModules = new Set<string>();

/** Whether the thrown value is a `SyntaxError` (read without consuming it). */
function isSyntaxError(context: QuickJSContext, error: QuickJSHandle): boolean {
  const name = context.getProp(error, "name");
  try {
    return context.typeof(name) === "string" && context.getString(name) === "SyntaxError";
  } finally {
    name.dispose();
  }
}

/**
 * The module as a factory `(module, exports) => void`: CommonJS wrapped in a
 * function (its top-level code runs when the factory is called), or, when
 * that does not compile, an ES module, evaluated here (top-level code and
 * top-level `await` included) and wrapped by {@link ESM_FACTORY_SOURCE}.
 * When both fail to compile, the error shown is the ES module's if the
 * CommonJS one was about `import` or `export`, else the CommonJS one.
 */
function compileFactory(
  guest: Guest,
  source: string,
): { value: QuickJSHandle } | { failure: string } {
  const { context } = guest;
  let commonJsFailure: string | null = null;
  if (!esModules.has(source)) {
    const wrapped = context.evalCode(wrapModuleSource(source), MODULE_FILE);
    if (wrapped.error === undefined) return { value: wrapped.value };
    const syntax = isSyntaxError(context, wrapped.error);
    commonJsFailure = describeFailure(context, wrapped.error);
    wrapped.error.dispose();
    if (!syntax) return { failure: commonJsFailure };
  }
  const evaluated = context.evalCode(source, MODULE_FILE, { type: "module" });
  if (evaluated.error !== undefined) {
    const esmSyntax = isSyntaxError(context, evaluated.error);
    const failure = describeFailure(context, evaluated.error);
    evaluated.error.dispose();
    const aboutModules = commonJsFailure === null ||
      /unsupported keyword: (?:export|import)|expecting '\('/.test(commonJsFailure);
    return { failure: esmSyntax && !aboutModules ? commonJsFailure ?? failure : failure };
  }
  esModules.add(source);
  const namespace = settleNamespace(guest, evaluated.value);
  if ("failure" in namespace) return namespace;
  const glue = context.evalCode(ESM_FACTORY_SOURCE, PRELUDE_FILE);
  try {
    const made = callGuest(guest, unwrap(context, glue), [namespace.value]);
    return "failure" in made ? made : { value: made.value };
  } finally {
    if (glue.error === undefined) glue.value.dispose();
    namespace.value.dispose();
  }
}

/** The namespace of an evaluated module: its promise (top-level `await`) settled first. */
function settleNamespace(
  guest: Guest,
  evaluated: QuickJSHandle,
): { value: QuickJSHandle } | { failure: string } {
  const { context, runtime } = guest;
  const state = context.getPromiseState(evaluated);
  if (state.type === "fulfilled" && state.notAPromise === true) return { value: evaluated };
  if (state.type === "fulfilled") state.value.dispose();
  if (state.type === "rejected") state.error.dispose();
  try {
    for (;;) {
      const ran = runtime.executePendingJobs();
      if (ran.error !== undefined) {
        const failure = describeFailure(context, ran.error);
        ran.error.dispose();
        return { failure };
      }
      if (ran.value === 0) break;
    }
    const settled = context.getPromiseState(evaluated);
    if (settled.type === "pending") {
      const message = "the module's top-level await never settled";
      return { failure: JSON.stringify({ k: "threw", name: "Error", message, stack: "" }) };
    }
    if (settled.type === "rejected") {
      const failure = describeFailure(context, settled.error);
      settled.error.dispose();
      return { failure };
    }
    return { value: settled.value };
  } finally {
    evaluated.dispose();
  }
}

/** Runs one job and returns the JSON encoding of its outcome (see the module doc). */
export function runJob(guest: Guest, job: GuestJob): string {
  // A module is inspected before it is ever called: checking it there is enough.
  const deepLine = job.type === "inspect" ? findDeepNesting(job.source) : null;
  if (deepLine !== null) {
    const message =
      `brackets nested more than ${MAX_SOURCE_NESTING} levels deep, more than the engine can compile`;
    const stack = `    at ${MODULE_FILE}:${deepLine}:1`;
    return JSON.stringify({ k: "threw", name: "SyntaxError", message, stack });
  }
  const factory = compileFactory(guest, job.source);
  if ("failure" in factory) return factory.failure;
  try {
    return job.type === "inspect"
      ? inspectJob(guest, factory.value)
      : callJob(guest, job, factory.value);
  } finally {
    factory.value.dispose();
  }
}
