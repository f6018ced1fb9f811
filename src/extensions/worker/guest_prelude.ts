/**
 * The guest-side half of the bridge: JavaScript compiled in every fresh
 * QuickJS context before the user's module. It builds `ctx` on top of two
 * host functions. It is kept small on purpose: QuickJS compiles it for every
 * context, at about 0.13 ms per KB.
 *
 * - `host(name, argsJson)` blocks until the host answers `{"v": value}` or
 *   `{"e": {"name", "message"}}`; the prelude throws the latter as a guest error.
 * - `emit(name, text)` sends a live event (`log`, `notify`) without waiting;
 *   it returns an error message for a malformed notice, else "".
 * - `run` returns the export's value, or a native promise for a thenable;
 *   errors escape to the worker, which reads them with `dump`.
 * - `json(value)` is `JSON.stringify` as it was before user code ran
 *   (undefined when the value cannot be encoded).
 *
 * Nothing is left on the guest's global object: the prelude is a function
 * expression whose handles only the worker holds.
 *
 * @module
 */

/** The file name guest frames of the prelude carry (never shown to users). */
export const PRELUDE_FILE = "<rienda>";

/** The file name the user's module is evaluated under; error lines refer to it. */
export const MODULE_FILE = "index.js";

/** Marks an `undefined` argument, which JSON would turn into `null`. */
export const UNDEFINED_ARGUMENT = "\u0000undefined";

/** The `ctx` functions that call the host, by their bridge names. */
export const HOST_FUNCTIONS = [
  "sleep",
  "confirm",
  "file.read",
  "file.write",
  "file.exists",
  "file.list",
  "env.get",
  "http.fetch",
  "system.exec",
  "system.which",
  "cache.get",
  "cache.set",
  "cache.has",
  "cache.del",
  "store.get",
  "store.set",
  "store.has",
  "store.del",
] as const;

/** Wraps a CommonJS module so its line numbers stay those of the user's file. */
export function wrapModuleSource(source: string): string {
  return `(function (module, exports) {${source}\n})`;
}

/**
 * Turns an ES module's namespace into a factory like a wrapped CommonJS
 * module's: `module.exports` gets the keys of the default export (when it is
 * an object or a function), then every named export; compiled only for ES
 * modules.
 */
export const ESM_FACTORY_SOURCE = `(function (ns) {
"use strict";
return function (module) {
  var d = ns["default"], e = {};
  if (d !== null && (typeof d === "object" || typeof d === "function")) Object.keys(d).forEach(function (k) { e[k] = d[k]; });
  Object.keys(ns).forEach(function (k) { if (k !== "default") e[k] = ns[k]; });
  module.exports = e;
};
})`;

/** The prelude: `(function (host, emit) { … return { run, json }; })`. */
export const PRELUDE_SOURCE = `(function (host, emit) {
"use strict";
var U = ${JSON.stringify(UNDEFINED_ARGUMENT)}, stringify = JSON.stringify, parse = JSON.parse;
var NAMES = ${JSON.stringify(HOST_FUNCTIONS)};
function fail(type, message) {
  throw new (type === "TypeError" ? TypeError : type === "RangeError" ? RangeError : Error)(message);
}
function kind(v) { return v === null ? "null" : Array.isArray(v) ? "array" : typeof v; }
function call(name, args) {
  var list = [], text;
  for (var i = 0; i < args.length; i++) list.push(args[i] === undefined ? U : args[i]);
  try { text = stringify(list); } catch (e) { fail("TypeError", "ctx." + name + ": arguments must be plain data"); }
  var reply = parse(host(name, text));
  if (reply.e) fail(reply.e.name, reply.e.message);
  return reply.v;
}
function freeze(v) {
  if (v !== null && typeof v === "object" && !Object.isFrozen(v)) { Object.freeze(v); for (var k in v) freeze(v[k]); }
  return v;
}
function makeContext(d) {
  var ctx = { workdir: d.workdir, session: freeze(d.session), agent: freeze(d.agent), config: freeze(d.config),
    log: function (text) {
      if (typeof text !== "string") fail("TypeError", "ctx.log: text must be a string (found " + kind(text) + ")");
      emit("log", text);
    },
    notify: function (notice) {
      if (notice === null || typeof notice !== "object") fail("TypeError", "ctx.notify: expected { title, body } (found " + kind(notice) + ")");
      var problem = emit("notify", stringify(notice));
      if (problem) fail("TypeError", problem);
    } };
  NAMES.forEach(function (name) {
    var parts = name.split("."), space = ctx;
    if (parts.length > 1) space = ctx[parts[0]] || (ctx[parts[0]] = {});
    space[parts[parts.length - 1]] = function () { return call(name, Array.prototype.slice.call(arguments)); };
  });
  return ctx;
}
function run(factory, contextJson, entry, argsJson) {
  var module = { exports: {} };
  factory(module, module.exports);
  var exported = module.exports, target = exported == null ? undefined : exported[entry];
  if (typeof target !== "function") fail("TypeError", "module.exports." + entry + " is not a function (found " + kind(target) + ")");
  var v = target.apply(exported, [makeContext(parse(contextJson))].concat(parse(argsJson)));
  return v !== null && (typeof v === "object" || typeof v === "function") && typeof v.then === "function" ? Promise.resolve(v) : v;
}
function json(v) { try { return stringify(v); } catch (e) { return undefined; } }
return { run: run, json: json };
})`;

/**
 * Reports a module's exports without calling them, as JSON
 * `{ type, keys: { name: { type, json? } } }`; compiled only when a module is loaded.
 */
export const INSPECT_SOURCE = `(function (factory) {
"use strict";
var module = { exports: {} };
factory(module, module.exports);
var exported = module.exports;
function kind(v) { return v === null ? "null" : Array.isArray(v) ? "array" : typeof v; }
var report = { type: kind(exported), keys: {} };
if (exported !== null && (typeof exported === "object" || typeof exported === "function")) {
  Object.keys(exported).forEach(function (key) {
    var value = exported[key], entry = { type: kind(value) };
    if (entry.type !== "function" && entry.type !== "undefined") {
      try { entry.json = JSON.stringify(value); } catch (e) { entry.json = null; }
    }
    report.keys[key] = entry;
  });
}
return JSON.stringify(report);
})`;
