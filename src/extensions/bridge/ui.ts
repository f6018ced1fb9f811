/**
 * The blocking `ctx` members that reach the person or the clock:
 * `ctx.confirm` (true with auto-approve, asked through the front end when a
 * person is there, false otherwise with a notice naming `-y`) and `ctx.sleep` (returns early when the
 * run is interrupted). `ctx.log` and `ctx.notify` are events, see `bridge.ts`.
 *
 * @module
 */

import type { ExtensionRunContext } from "../run_context.ts";
import { readArguments, readWaitMs, typeError } from "./arguments.ts";
import type { BridgeFunction } from "./bridge_function.ts";

/** Resolves after `ms` milliseconds, or at once when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}

async function confirm(
  args: readonly unknown[],
  context: ExtensionRunContext,
  signal: AbortSignal,
) {
  const fn = "ctx.confirm";
  const question = args[0];
  if (typeof question !== "object" || question === null || Array.isArray(question)) {
    throw typeError(fn, "the question", "an object { title, body }", question);
  }
  const options = readArguments(fn, args).options(0);
  const title = options.string("title") ?? "";
  const body = options.string("body") ?? "";
  return await answerConfirm(context, { title, body }, signal);
}

/**
 * The answer to a yes/no question as `ctx.confirm` gets it: yes with
 * auto-approve, the person's when one can be asked, else no with a notice
 * naming `-y`; `asker` names who asked in that notice.
 */
export async function answerConfirm(
  context: Pick<ExtensionRunContext, "autoApprove" | "confirm" | "notice">,
  question: { readonly title: string; readonly body: string },
  signal: AbortSignal,
  asker = "ctx.confirm",
): Promise<boolean> {
  if (context.autoApprove) return true;
  if (context.confirm === undefined) {
    context.notice(
      `${asker} "${question.title}" was answered no: nobody could be asked (pass -y to answer yes)`,
    );
    return false;
  }
  return (await context.confirm({ title: question.title, body: question.body }, signal)) === true;
}

/** `ctx.sleep` and `ctx.confirm` of one run. */
export function uiFunctions(context: ExtensionRunContext): Record<string, BridgeFunction> {
  return {
    "sleep": async (args, { signal }) => {
      await sleep(readWaitMs("ctx.sleep", "ms", args[0]), signal);
    },
    "confirm": (args, { signal }) => confirm(args, context, signal),
  };
}
