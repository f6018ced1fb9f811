/**
 * The names and the little JavaScript the worker puts around a user's module:
 * the CommonJS wrapper, the ES module glue and the export inspector (compiled
 * only when a module is inspected or is an ES module). `ctx` itself is built
 * from host functions (`guest_ctx.ts`), so a fresh context compiles nothing
 * for it.
 *
 * @module
 */

/** The file name guest frames of this glue carry (never shown to users). */
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
  "cache.shared.get",
  "cache.shared.set",
  "cache.shared.has",
  "cache.shared.del",
  "store.shared.get",
  "store.shared.set",
  "store.shared.has",
  "store.shared.del",
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
