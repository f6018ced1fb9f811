/**
 * The built-in tools every agent may name in `tools:` (docs/cli.md, Tools).
 * A user tool with the same name replaces a built-in; the app decides that.
 *
 * @module
 */

import { createHttpTool } from "./http.ts";
import { createShellTool } from "./shell.ts";
import type { Tool } from "./tool.ts";

/** Fresh instances of the built-in tools, `http` and `shell`, sorted by name. */
export function builtinTools(): Tool[] {
  return [createHttpTool(), createShellTool()];
}
