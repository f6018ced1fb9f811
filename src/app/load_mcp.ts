/**
 * Loads the MCP client (`src/mcp/`, and with it the SDK) on demand.
 *
 * The specifier is not a literal on purpose: `deno run` walks every literal
 * dynamic import at start-up, which would make every run pay for resolving
 * the SDK. `scripts/compile.ts` includes the module in the binary by name.
 *
 * @module
 */

import type * as Mcp from "../mcp/mcp_tools.ts";

/** The module {@link loadMcp} imports, relative to this file. */
export const MCP_MODULE = "../mcp/mcp_tools.ts";

/** The MCP client's entry point. */
export function loadMcp(): Promise<typeof Mcp> {
  return import(MCP_MODULE);
}
