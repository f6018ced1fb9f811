/**
 * The shape every host-side `ctx` function has.
 *
 * @module
 */

import type { Grant } from "../capabilities.ts";

/** One invocation's view of the run: its interrupt, its live output and its grant. */
export interface Invocation {
  /** Aborted when the run is interrupted; every host call honours it. */
  readonly signal: AbortSignal;
  /** Live output: tool output for tools, notices for hooks. */
  readonly output: (text: string) => void;
  /** What the extension may reach (`access.ts` enforces it). */
  readonly grant: Grant;
}

/** The host implementation of one `ctx` member; it receives the decoded guest arguments. */
export type BridgeFunction = (args: readonly unknown[], invocation: Invocation) => unknown;
