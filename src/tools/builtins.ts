/**
 * The built-in tools every agent may name in `tools:` (docs/tools.md).
 * A user tool with the same name replaces a built-in; the app decides that.
 *
 * @module
 */

import { createAgentTool, type Delegation } from "./agent.ts";
import { type Approval, NO_APPROVAL } from "./approval.ts";
import { createEditTool } from "./edit.ts";
import { createFindTool } from "./find.ts";
import { createGrepTool } from "./grep.ts";
import { createHttpTool } from "./http.ts";
import { createLsTool } from "./ls.ts";
import { createReadTool } from "./read.ts";
import { createShellTool } from "./shell.ts";
import type { Tool } from "./tool.ts";
import type { CommandSandbox } from "../sandbox/command_sandbox.ts";
import { createWriteTool } from "./write.ts";
import * as precompiled from "./builtin_validators.js";
import { usePrecompiledSchema } from "./tool_schema.ts";
import type { ValidateFunction } from "ajv";

import type { EditorFiles } from "./editor_files.ts";

export { type Approval, type ApprovalQuestion, type GuardedPath, NO_APPROVAL } from "./approval.ts";

/**
 * Fresh instances of the built-in tools, sorted by name; `approval` decides
 * what `write` and `edit` may do outside the workspace (nothing, by default)
 * and which of rienda's own files `read`, `grep`, `edit` and `write` may touch;
 * `delegation` is whom `agent` can call and how (none: it cannot); `sandbox`
 * confines the commands of `shell` (docs/sandbox.md); `files` are an
 * editor's, which `read`, `write` and `edit` go through (`editor_files.ts`).
 */
export function builtinTools(
  approval: Approval = NO_APPROVAL,
  delegation?: Delegation,
  sandbox: CommandSandbox | null = null,
  files?: EditorFiles,
): Tool[] {
  const tools = [
    createAgentTool(delegation),
    createEditTool(approval, files),
    createFindTool(),
    createGrepTool(approval),
    createHttpTool(),
    createLsTool(),
    createReadTool(approval, files),
    createShellTool(sandbox),
    createWriteTool(approval, files),
  ];
  // Keyed by the built-in's own parameters object (a constant, in step with the generated file:
  // generate_builtin_validators_test.ts): a user tool of the same name gets ajv's.
  const validators: Readonly<Record<string, ValidateFunction | undefined>> = precompiled;
  for (const tool of tools) {
    const validate = validators[tool.name];
    if (validate !== undefined) usePrecompiledSchema(tool.parameters, validate);
  }
  return tools;
}
