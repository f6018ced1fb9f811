/**
 * Loads the MCP client (`src/mcp/`, and with it the SDK) on demand.
 *
 * The specifier is not a literal on purpose: `deno run` walks every literal
 * dynamic import at start-up, which would make every run pay for resolving
 * the SDK. `deno compile` includes the module in the binary by name
 * (`scripts/lazy_entries.ts`).
 *
 * @module
 */

/** What the module exports (a type-level `import()`, erased at run time). */
type Mcp = typeof import("../mcp/mcp_tools.ts");

/** The module {@link loadMcp} imports, relative to this file. */
export const MCP_MODULE = "../mcp/mcp_tools.ts";

/** The MCP client's entry point. */
export function loadMcp(): Promise<Mcp> {
  return import(MCP_MODULE);
}
