/**
 * Regular expressions written in one place and run on text from another
 * (a tool schema's `pattern` on a model's arguments, a hook's `matcher` on
 * the tool name a model calls) run on RE2 (`re2js`), in time linear in the
 * text, instead of JavaScript's backtracking engine, where `^(a+)+$`
 * against 41 characters takes minutes on the main thread and no interrupt
 * gets through.
 *
 * - ECMAScript syntax is translated; what RE2 cannot do in linear time
 *   (lookaround, backreferences) is refused when the expression is compiled.
 * - `re2js` is imported on demand ({@link loadLinearRegExp}, about 260 KB of
 *   JavaScript): a run without such an expression never loads it.
 *
 * @module
 */

import type { RE2JS } from "re2js";
import { errorMessage } from "./unknown.ts";

let engine: typeof RE2JS | undefined;
let loading: Promise<void> | undefined;

/** Loads RE2; {@link compileLinear} needs it loaded. */
export function loadLinearRegExp(): Promise<void> {
  loading ??= import("re2js").then((module) => {
    engine = module.RE2JS;
  });
  return loading;
}

/** A compiled expression: whether it is found in a text (anchor it to match the whole text). */
export interface LinearRegExp {
  test(text: string): boolean;
}

/**
 * Compiles `pattern` (ECMAScript syntax) for RE2, or says why RE2 refuses it
 * (`invalid or unsupported Perl syntax: \`(?=\``).
 *
 * @throws {Error} when RE2 is not loaded yet
 */
export function compileLinear(pattern: string): LinearRegExp | { readonly problem: string } {
  if (engine === undefined) {
    throw new Error("the linear-time regular expression engine is not loaded");
  }
  let compiled: RE2JS;
  try {
    compiled = engine.compile(engine.translateRegExp(pattern));
  } catch (error) {
    return { problem: errorMessage(error).replace(/^error parsing regexp: /, "") };
  }
  return { test: (text) => compiled.test(text) };
}
