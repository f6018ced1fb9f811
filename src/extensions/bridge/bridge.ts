/**
 * The host side of `ctx`: one function per guest call (`file.read`,
 * `http.fetch`, …), each in the file of its namespace, dispatched by name.
 * Arguments arrive as JSON and are checked here; replies go back as JSON
 * (`{"v": value}` or `{"e": {"name", "message"}}`), which the guest prelude
 * turns into a return value or a catchable error.
 *
 * @module
 */

import type { ExtensionRunContext } from "../run_context.ts";
import { BridgeError, decodeArguments } from "./arguments.ts";
import type { BridgeFunction, Invocation } from "./bridge_function.ts";
import { keyValueFunctions } from "./cache.ts";
import { envFunctions } from "./env.ts";
import { fileFunctions } from "./file.ts";
import { httpFunctions } from "./http.ts";
import { systemFunctions } from "./system.ts";
import { uiFunctions } from "./ui.ts";
import { errorMessage } from "../../base/unknown.ts";

/** The host side of every `ctx` of one run. */
export interface Bridge {
  /** Runs guest call `name` and returns the reply JSON; never rejects. */
  call(name: string, argsJson: string, invocation: Invocation): Promise<string>;
  /** Handles a live event from the guest (`log`, `notify`). */
  event(name: string, text: string, invocation: Invocation): void;
}

const INTERRUPTED = JSON.stringify({ e: { name: "Error", message: "interrupted" } });

function errorReply(name: string, error: unknown): string {
  if (error instanceof BridgeError) {
    return JSON.stringify({ e: { name: error.guestName, message: error.message } });
  }
  const detail = errorMessage(error);
  return JSON.stringify({ e: { name: "Error", message: `ctx.${name}: ${detail}` } });
}

function parseNotice(text: string): { title: string; body: string } | null {
  const value: unknown = JSON.parse(text);
  if (typeof value !== "object" || value === null) return null;
  const title = "title" in value && typeof value.title === "string" ? value.title : "";
  const body = "body" in value && typeof value.body === "string" ? value.body : "";
  return { title, body };
}

/** Builds the host side of `ctx` for one run. */
export function createBridge(context: ExtensionRunContext): Bridge {
  const functions = new Map<string, BridgeFunction>(Object.entries({
    ...fileFunctions(context),
    ...envFunctions(),
    ...httpFunctions(),
    ...systemFunctions(context),
    ...uiFunctions(context),
    ...keyValueFunctions(context),
  }));
  return {
    async call(name, argsJson, invocation) {
      const fn = functions.get(name);
      if (fn === undefined) return errorReply(name, new Error("not a ctx function"));
      if (invocation.signal.aborted) return INTERRUPTED;
      try {
        const value = await fn(decodeArguments(argsJson), invocation);
        if (invocation.signal.aborted) return INTERRUPTED;
        return value === undefined ? "{}" : JSON.stringify({ v: value });
      } catch (error) {
        return invocation.signal.aborted ? INTERRUPTED : errorReply(name, error);
      }
    },
    event(name, text, invocation) {
      if (name === "log") {
        invocation.output(text); // the worker ended it with a newline and may cut a long one
      } else if (name === "notify") {
        const notice = parseNotice(text);
        if (notice !== null) context.notify?.(notice);
      }
    },
  };
}
