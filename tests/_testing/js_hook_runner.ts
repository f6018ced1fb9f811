/**
 * For tests and benchmarks: JavaScript hooks alone as the engine's
 * {@link HookRunner}, the chain of `hooks/hook_chain.ts` over
 * {@link createScriptHook}, in the order given, reporting to the run
 * context's notices. A run builds its chain in `app/run_hooks.ts`.
 *
 * @module
 */

import type { HookRunner } from "../../src/engine/hooks.ts";
import { createHookChain } from "../../src/hooks/hook_chain.ts";
import type { ExtensionHost } from "../../src/extensions/host.ts";
import type { LoadedHook } from "../../src/extensions/load_module.ts";
import type { ExtensionRunContext } from "../../src/extensions/run_context.ts";
import { createScriptHook } from "../../src/extensions/script_hook.ts";

export { failedClosed, refusedBy } from "../../src/hooks/hook_chain.ts";

/** What {@link createHookRunner} needs besides the hooks. */
export interface HookRunnerOptions {
  readonly host: ExtensionHost;
  readonly context: ExtensionRunContext;
  /** How long `afterRun` hooks keep running once the run is interrupted (tests shorten it). */
  readonly afterRunGraceMs?: number;
}

/** Builds the runner for `hooks`, in the order the agent lists them. */
export function createHookRunner(
  hooks: readonly LoadedHook[],
  options: HookRunnerOptions,
): HookRunner {
  return createHookChain(hooks.map((hook) => createScriptHook(hook, options)), {
    notice: options.context.notice,
    ...(options.afterRunGraceMs === undefined ? {} : { afterRunGraceMs: options.afterRunGraceMs }),
  });
}
