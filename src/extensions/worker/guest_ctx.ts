/**
 * The guest-side half of the bridge, built from host functions: `ctx` and the
 * steps of a call (`run`, `json`) are made with QuickJS handles, so nothing is
 * compiled for them in a fresh context (compiling an equivalent prelude cost
 * more than the rest of the context).
 *
 * The realm's built-ins they use (`JSON.stringify`, `JSON.parse`,
 * `Object.freeze`, `Array.isArray`, `Promise.resolve`, the error classes) are
 * taken when the context is made, before user code runs, and `ctx` is
 * complete by then too (its data members are filled in per job, into own
 * properties): replacing built-ins or prototypes in user code cannot break or
 * subvert it, and nothing of the bridge is reachable from the guest.
 *
 * - A `ctx` function that calls the host sends its arguments as a JSON array
 *   (an `undefined` as {@link UNDEFINED_ARGUMENT}) and blocks until the host
 *   answers `{"v": value}`, `{}` (undefined) or `{"e": {"name", "message"}}`;
 *   the latter is thrown as a guest `TypeError`, `RangeError` or `Error`.
 * - `ctx.log` and `ctx.notify` send a live event without waiting.
 *
 * @module
 */

import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core";
import { checkNotice } from "./guest_events.ts";
import { HOST_FUNCTIONS, UNDEFINED_ARGUMENT } from "./guest_prelude.ts";

const UNDEFINED_JSON = JSON.stringify(UNDEFINED_ARGUMENT);

/** What the guest's `ctx` needs from the worker around it. */
export interface CtxHooks {
  /** Performs a host call and returns the reply JSON; blocks the guest meanwhile. */
  hostCall(name: string, argsJson: string): string;
  /** Sends a live event without waiting. */
  emit(name: string, text: string): void;
}

/** The realm's own built-ins, taken before user code runs. */
interface Intrinsics {
  readonly stringify: QuickJSHandle;
  readonly parse: QuickJSHandle;
  readonly freeze: QuickJSHandle;
  readonly isArray: QuickJSHandle;
  readonly promise: QuickJSHandle;
  readonly resolve: QuickJSHandle;
  readonly reflectGet: QuickJSHandle;
  readonly object: QuickJSHandle;
  readonly typeError: QuickJSHandle;
  readonly rangeError: QuickJSHandle;
  readonly error: QuickJSHandle;
  readonly bind: QuickJSHandle;
}

/** A fresh context's `ctx`, before its data members are filled in. */
export interface GuestCtx {
  readonly context: QuickJSContext;
  readonly intrinsics: Intrinsics;
  /** The `ctx` object passed to the export. */
  readonly ctx: QuickJSHandle;
  /** The `module` the factory fills in, `{ exports: {} }`. */
  readonly module: QuickJSHandle;
  /** Its first `exports` object, the factory's second argument. */
  readonly exports: QuickJSHandle;
}

function isTrue(context: QuickJSContext, handle: QuickJSHandle): boolean {
  return context.sameValue(handle, context.true);
}

/** The `kind` words of messages: `null`, `array` or the `typeof`. */
export function kindOf(guest: GuestCtx, value: QuickJSHandle): string {
  const { context } = guest;
  const type = context.typeof(value);
  if (type !== "object") return type;
  if (context.sameValue(value, context.null)) return "null";
  const array = context.callFunction(guest.intrinsics.isArray, context.undefined, value);
  if (array.error !== undefined) {
    array.error.dispose();
    return type;
  }
  const isArray = isTrue(context, array.value);
  array.value.dispose();
  return isArray ? "array" : type;
}

/** A new guest error of the class `name` names (`TypeError`, `RangeError`, else `Error`). */
export function guestError(guest: GuestCtx, name: string, message: string): QuickJSHandle {
  const { context, intrinsics } = guest;
  const type = name === "TypeError"
    ? intrinsics.typeError
    : name === "RangeError"
    ? intrinsics.rangeError
    : intrinsics.error;
  const text = context.newString(message);
  const made = context.callFunction(type, context.undefined, text);
  text.dispose();
  return made.error ?? made.value;
}

/** `JSON.stringify(value)` as it was before user code ran: the text, or null (throws or undefined). */
export function stringify(guest: GuestCtx, value: QuickJSHandle): string | null {
  const { context } = guest;
  const result = context.callFunction(guest.intrinsics.stringify, context.undefined, value);
  if (result.error !== undefined) {
    result.error.dispose();
    return null;
  }
  const text = context.typeof(result.value) === "string" ? context.getString(result.value) : null;
  result.value.dispose();
  return text;
}

/** `JSON.parse(text)` as it was before user code ran; throws the guest error as a handle. */
export function parse(guest: GuestCtx, text: string): QuickJSHandle {
  const { context } = guest;
  const source = context.newString(text);
  const result = context.callFunction(guest.intrinsics.parse, context.undefined, source);
  source.dispose();
  if (result.error !== undefined) throw result.error;
  return result.value;
}

/** What a guest step gave: a value, or the guest's exception (both handles to dispose). */
export type Step = { readonly value: QuickJSHandle } | { readonly error: QuickJSHandle };

function step(result: ReturnType<QuickJSContext["callFunction"]>): Step {
  return result.error === undefined ? { value: result.value } : { error: result.error };
}

/** `target[key]` as the guest reads it (getters run); `null` and `undefined` give undefined. */
export function readProperty(guest: GuestCtx, target: QuickJSHandle, key: string): Step {
  const { context, intrinsics } = guest;
  const type = context.typeof(target);
  if (type === "undefined" || context.sameValue(target, context.null)) {
    return { value: context.undefined };
  }
  const name = context.newString(key);
  try {
    if (type === "object" || type === "function") {
      return step(context.callFunction(intrinsics.reflectGet, context.undefined, target, name));
    }
    // A primitive reads through its wrapper, with itself as the receiver.
    const boxed = context.callFunction(intrinsics.object, context.undefined, target);
    if (boxed.error !== undefined) return { error: boxed.error };
    try {
      const args = [boxed.value, name, target];
      return step(context.callFunction(intrinsics.reflectGet, context.undefined, args));
    } finally {
      boxed.value.dispose();
    }
  } finally {
    name.dispose();
  }
}

/** `Promise.resolve(value)` as it was before user code ran. */
export function resolvePromise(guest: GuestCtx, value: QuickJSHandle): Step {
  const { context, intrinsics } = guest;
  return step(context.callFunction(intrinsics.resolve, intrinsics.promise, value));
}

/**
 * The JSON array of a host call's arguments, each encoded as
 * `JSON.stringify([arg])` would (a function or symbol as `null`); throws a
 * guest TypeError when one is not data.
 */
function encodeArguments(guest: GuestCtx, name: string, args: QuickJSHandle[]): string {
  const { context } = guest;
  const parts = args.map((arg) => {
    const type = context.typeof(arg);
    if (type === "undefined") return UNDEFINED_JSON;
    // Strings and numbers encode the same on either side: no guest call for them.
    if (type === "string") return JSON.stringify(context.getString(arg));
    if (type === "number") return JSON.stringify(context.getNumber(arg));
    const result = context.callFunction(guest.intrinsics.stringify, context.undefined, arg);
    if (result.error !== undefined) {
      result.error.dispose();
      throw guestError(guest, "TypeError", `ctx.${name}: arguments must be plain data`);
    }
    const text = context.typeof(result.value) === "string"
      ? context.getString(result.value)
      : "null";
    result.value.dispose();
    return text;
  });
  return `[${parts.join(",")}]`;
}

const VALUE_REPLY = '{"v":';
/** A reply value made on the host side: `true`, `false`, `null` or a number. */
const SCALAR_REPLY = /^(?:true|false|null|-?\d[\d.eE+-]*)$/;

function scalar(context: QuickJSContext, value: unknown): QuickJSHandle {
  if (typeof value === "number") return context.newNumber(value);
  return value === true ? context.true : value === false ? context.false : context.null;
}

/** The guest value of a host reply; throws the guest error of an `e` reply. */
function decodeReply(guest: GuestCtx, reply: string): QuickJSHandle | undefined {
  if (reply.startsWith(VALUE_REPLY) && reply.endsWith("}")) {
    const json = reply.slice(VALUE_REPLY.length, -1);
    return SCALAR_REPLY.test(json) ? scalar(guest.context, JSON.parse(json)) : parse(guest, json);
  }
  if (!reply.startsWith('{"e":')) return undefined; // `{}`: the host returned nothing
  const error: unknown = Reflect.get(JSON.parse(reply), "e");
  const field = (key: string) => {
    const value: unknown = typeof error === "object" && error !== null
      ? Reflect.get(error, key)
      : undefined;
    return typeof value === "string" ? value : "";
  };
  throw guestError(guest, field("name"), field("message"));
}

/**
 * The one host function behind every host-calling `ctx` function: each is
 * `host.bind(undefined, name)`, a native bound function whose target the guest
 * cannot reach.
 */
function hostFunction(guest: GuestCtx, hooks: CtxHooks): QuickJSHandle {
  const { context } = guest;
  return context.newFunction("", (nameHandle, ...args) => {
    const name = context.getString(nameHandle);
    return decodeReply(guest, hooks.hostCall(name, encodeArguments(guest, name, args)));
  });
}

function eventFunctions(guest: GuestCtx, hooks: CtxHooks): [string, QuickJSHandle][] {
  const { context } = guest;
  const log = context.newFunction("log", (text) => {
    if (context.typeof(text) !== "string") {
      const found = kindOf(guest, text);
      throw guestError(guest, "TypeError", `ctx.log: text must be a string (found ${found})`);
    }
    hooks.emit("log", context.getString(text));
  });
  const notify = context.newFunction("notify", (notice) => {
    const type = context.typeof(notice);
    if (type !== "object" || context.sameValue(notice, context.null)) {
      const message = `ctx.notify: expected { title, body } (found ${kindOf(guest, notice)})`;
      throw guestError(guest, "TypeError", message);
    }
    const result = context.callFunction(guest.intrinsics.stringify, context.undefined, notice);
    if (result.error !== undefined) throw result.error;
    const text = context.getString(result.value);
    result.value.dispose();
    const problem = checkNotice(text);
    if (problem !== "") throw guestError(guest, "TypeError", problem);
    hooks.emit("notify", text);
  });
  return [["log", log], ["notify", notify]];
}

function takeIntrinsics(context: QuickJSContext): Intrinsics {
  const global = context.global;
  const json = context.getProp(global, "JSON");
  const array = context.getProp(global, "Array");
  const reflect = context.getProp(global, "Reflect");
  const object = context.getProp(global, "Object");
  const promise = context.getProp(global, "Promise");
  const func = context.getProp(global, "Function");
  const functionPrototype = context.getProp(func, "prototype");
  const intrinsics: Intrinsics = {
    stringify: context.getProp(json, "stringify"),
    parse: context.getProp(json, "parse"),
    freeze: context.getProp(object, "freeze"),
    isArray: context.getProp(array, "isArray"),
    promise,
    resolve: context.getProp(promise, "resolve"),
    reflectGet: context.getProp(reflect, "get"),
    object,
    typeError: context.getProp(global, "TypeError"),
    rangeError: context.getProp(global, "RangeError"),
    error: context.getProp(global, "Error"),
    bind: context.getProp(functionPrototype, "bind"),
  };
  for (const owner of [json, array, reflect, func, functionPrototype]) owner.dispose();
  return intrinsics;
}

/**
 * Builds `ctx` in a fresh context, before any user code: its data members
 * (`workdir`, `session`, `agent`, `config`) are placeholders until
 * {@link fillCtx}, so its members keep the documented order.
 */
export function createCtx(context: QuickJSContext, hooks: CtxHooks): GuestCtx {
  const guest: GuestCtx = {
    context,
    intrinsics: takeIntrinsics(context),
    ctx: context.newObject(),
    module: context.newObject(),
    exports: context.newObject(),
  };
  const { ctx } = guest;
  context.setProp(guest.module, "exports", guest.exports);
  for (const key of ["workdir", "session", "agent", "config"]) {
    context.setProp(ctx, key, context.undefined);
  }
  for (const [key, fn] of eventFunctions(guest, hooks)) {
    context.setProp(ctx, key, fn);
    fn.dispose();
  }
  const host = hostFunction(guest, hooks);
  const spaces = new Map<string, QuickJSHandle>();
  for (const name of HOST_FUNCTIONS) {
    // `store.shared.get`: `ctx.store`, then `ctx.store.shared`, each made once.
    const parts = name.split(".");
    const member = parts.pop() ?? name;
    let owner = ctx;
    for (let depth = 1; depth <= parts.length; depth++) {
      const path = parts.slice(0, depth).join(".");
      let space = spaces.get(path);
      if (space === undefined) {
        space = context.newObject();
        spaces.set(path, space);
        context.setProp(owner, parts[depth - 1] ?? path, space);
      }
      owner = space;
    }
    const bound = context.newString(name);
    const fn = context.callFunction(guest.intrinsics.bind, host, context.undefined, bound);
    bound.dispose();
    context.setProp(owner, member, context.unwrapResult(fn));
    fn.dispose();
  }
  for (const handle of [host, ...spaces.values()]) handle.dispose();
  return guest;
}

/** Freezes a parsed JSON value deeply, walking the same value parsed on the host. */
function freezeDeep(guest: GuestCtx, handle: QuickJSHandle, value: unknown): void {
  if (value === null || typeof value !== "object") return;
  const { context } = guest;
  const frozen = context.callFunction(guest.intrinsics.freeze, context.undefined, handle);
  if (frozen.error !== undefined) throw frozen.error;
  frozen.value.dispose();
  for (const [key, child] of Object.entries(value)) {
    if (child === null || typeof child !== "object") continue;
    const inner = context.getProp(handle, key);
    try {
      freezeDeep(guest, inner, child);
    } finally {
      inner.dispose();
    }
  }
}

/** Fills in `ctx.workdir`, `session`, `agent` and `config` (deeply frozen) from the job's JSON. */
export function fillCtx(guest: GuestCtx, contextJson: string): void {
  const { context, ctx } = guest;
  const data: unknown = JSON.parse(contextJson);
  const parsed = parse(guest, contextJson);
  try {
    for (const key of ["workdir", "session", "agent", "config"]) {
      const value = context.getProp(parsed, key);
      try {
        if (key !== "workdir") {
          freezeDeep(
            guest,
            value,
            typeof data === "object" && data !== null ? Reflect.get(data, key) : null,
          );
        }
        // An own data property since createCtx: setting it runs no user code.
        context.setProp(ctx, key, value);
      } finally {
        value.dispose();
      }
    }
  } finally {
    parsed.dispose();
  }
}

/** Frees the handles of {@link createCtx}. */
export function disposeCtx(guest: GuestCtx): void {
  const { ctx, module, exports, intrinsics } = guest;
  for (const handle of [ctx, module, exports, ...Object.values(intrinsics)]) {
    if (handle.alive) handle.dispose();
  }
}
