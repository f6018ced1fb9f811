/**
 * `rienda types`: prints `rienda.d.ts`, the types of `ctx`, tools and hooks
 * (docs/extending.md, "Editor support"), to refresh the copy `rienda init`
 * wrote: `rienda types > ~/.rienda/rienda.d.ts`.
 *
 * @module
 */

import { RIENDA_DTS } from "../extensions/rienda_types.ts";
import type { Io } from "../ui/io.ts";
import { EXIT } from "./exit.ts";

/** Prints `rienda.d.ts` on stdout. */
export function typesCommand(io: Io): Promise<number> {
  io.stdout.write(RIENDA_DTS);
  return Promise.resolve(EXIT.ok);
}
