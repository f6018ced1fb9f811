/**
 * A run a guard must stop: the model asks for one shell call that touches
 * `ran` in the workspace, then answers; {@link ran} says whether the call
 * got past the guard.
 *
 * @module
 */

import type { TestEnv } from "./env.ts";
import type { Turn } from "./turn.ts";

/** A guard that throws at `beforeToolExecute`: it refuses only when it fails closed. */
export const THROWING_GUARD = `module.exports = {
  beforeToolExecute: function () { throw new Error("boom"); },
};
`;

/** The provider's turns: one shell call touching `ran`, then an answer. */
export function touchScript(): Turn[] {
  return [
    { toolCalls: [{ name: "shell", arguments: { command: "touch ran" } }] },
    { text: "done" },
  ];
}

/** Whether the shell call ran (the workspace holds `ran`). */
export async function ran(env: TestEnv): Promise<boolean> {
  return await Deno.stat(`${env.workdir}/ran`).then(() => true, () => false);
}
