/**
 * An agent file's `permission:` rules (`agents/agent_permissions.ts`) in
 * front of a tool: each call is matched on what it acts on (the command of
 * `shell`, the path of `write`, `edit`, `read` and `ls`, the pattern of `grep`
 * and `find`, the URL of `http`); `deny` refuses it, `ask` needs approval —
 * `-y`, or the person's yes in the chat or on a terminal, else it is refused
 * with a result that names `-y` — and `allow` (or no rule) runs it. `deny`
 * holds even with `-y`, as in opencode's auto mode.
 *
 * @module
 */

import {
  type AgentPermissions,
  decide,
  type PermissionRule,
  rulesFor,
} from "../agents/agent_permissions.ts";
import { displayPath, resolveToolPath } from "../tools/tool_paths.ts";
import { errorResult, type Tool } from "../tools/tool.ts";
import type { Approval } from "../tools/approval.ts";
import { isRecord } from "../base/unknown.ts";

/** The argument each built-in tool is matched on. */
const RESOURCE_ARGUMENT: Readonly<Record<string, string>> = {
  shell: "command",
  write: "path",
  edit: "path",
  read: "path",
  ls: "path",
  grep: "pattern",
  find: "pattern",
  http: "url",
};

/** Tools whose resource is a path, matched relative to the workspace. */
const PATH_TOOLS: ReadonlySet<string> = new Set(["write", "edit", "read", "ls"]);

/** `tool` under `permissions`; `tool` itself when no rule concerns it. */
export function permittedTool(
  tool: Tool,
  permissions: AgentPermissions | undefined,
  approval: Pick<Approval, "autoApprove" | "confirm">,
): Tool {
  const rules = permissions === undefined ? [] : rulesFor(permissions, tool.name);
  if (rules.every((rule) => rule.action === "allow")) return tool;
  return {
    ...tool,
    async execute(args, context) {
      const resource = resourceOf(tool.name, args, context.workdir);
      const rule = decide(rules, resource);
      if (rule === undefined || rule.action === "allow") return await tool.execute(args, context);
      const what = resource === "" ? tool.name : `${tool.name} ${JSON.stringify(resource)}`;
      if (rule.action === "deny") {
        return errorResult(`refused ${what}: the agent file denies it (${ruleText(rule)})`);
      }
      const asked = approval.autoApprove ||
        (approval.confirm !== undefined && await approval.confirm({
          title: `${tool.name}: the agent asks before this call`,
          body: `${what}\n(${ruleText(rule)})`,
          from: "rienda",
        }, context.signal));
      if (asked) return await tool.execute(args, context);
      return errorResult(
        approval.confirm === undefined
          ? `refused ${what}: the agent file asks before it (${
            ruleText(rule)
          }) and nobody can be asked: run rienda with -y (--auto-approve) to allow such calls`
          : `refused ${what}: the user declined it (${ruleText(rule)})`,
      );
    },
  };
}

/** `permission: bash: "rm *": ask`, as the file writes it. */
function ruleText(rule: PermissionRule): string {
  return `permission: ${rule.key}: ${JSON.stringify(rule.pattern)}: ${rule.action}`;
}

/** What a call of `name` acts on; "" for tools matched as a whole. */
function resourceOf(name: string, args: unknown, workdir: string): string {
  const key = RESOURCE_ARGUMENT[name];
  const value = key === undefined || !isRecord(args) ? undefined : args[key];
  if (typeof value !== "string") return "";
  return PATH_TOOLS.has(name) ? displayPath(workdir, resolveToolPath(workdir, value)) : value;
}
