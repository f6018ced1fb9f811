/**
 * Agent files: Markdown with a YAML frontmatter (description, model, tools,
 * hooks, config) whose body is the system prompt (docs/formats.md).
 *
 * - Every problem names the file, the line where known, the field and the
 *   fix: `/h/.rienda/agents/review.md:4: tools[1]: invalid tool name "a b" (…)`.
 * - Files written for Claude Code or opencode load (`peer_dialect.ts`): what
 *   rienda ignores is one note (`notes`: for `rienda agents` and doctor, never
 *   a run; cosmetic keys such as `color` are not named); a key close to a
 *   rienda key is an error (`did you mean \`tools\`?`).
 * - YAML broken only by a plain value holding `: ` (on one line or over
 *   several) is read with that value quoted, and a note naming the line
 *   (`yaml_recovery.ts`).
 * - Duplicate tool and hook names collapse to the first.
 *
 * @module
 */

import { basename } from "node:path";
import { describeValue } from "../config/describe_value.ts";
import type { FieldPath } from "../base/field_path.ts";
import { isRecord } from "../base/unknown.ts";
import { parseYaml, type YamlSource } from "../config/yaml_source.ts";
import { AgentFileError, agentFileError } from "./agent_file_error.ts";
import {
  checkKeys,
  type FieldContext,
  ignoredWarning,
  PERMISSION_FIELD,
  readAgents,
  readConfig,
  readDescription,
  readMaxTurns,
  readModel,
  readName,
  readSandbox,
  readTemperature,
  readThinking,
} from "./agent_fields.ts";
import { readTools } from "./agent_tools.ts";
import { readHooks } from "./agent_hooks.ts";
import type { HookEntry } from "../config/hook_entries.ts";
import { type AgentPermissions, deniesAll, readPermission, rulesFor } from "./agent_permissions.ts";
import { splitFrontmatter } from "./frontmatter.ts";
import type { SandboxSetting } from "../sandbox/sandbox_setting.ts";
import { quoteColonValues } from "./yaml_recovery.ts";
import { errorMessage } from "../base/unknown.ts";
import { readTextFileAtMost } from "../host/read_at_most.ts";

/** The largest agent file read (read while reading: a device or a huge file costs no more). */
const MAX_AGENT_FILE_BYTES = 1024 * 1024;

export { AgentFileError } from "./agent_file_error.ts";

/** A parsed, valid agent file. */
export interface AgentDefinition {
  /** The file name without `.md`. */
  readonly id: string;
  /** The file it was read from. */
  readonly path: string;
  readonly description: string;
  /** `name:` of the file, when it differs from the id: another name `-a` accepts. */
  readonly name?: string;
  /** `provider/model` or a bare model name (resolved at run time); absent when `default_model` or `-m` must give one. */
  readonly model?: string;
  /** Tools the model may call, in order, without duplicates. */
  readonly tools: readonly string[];
  /** The JavaScript hooks of `hooks:`, in declaration order, without duplicates. */
  readonly hooks: readonly string[];
  /** Every entry of `hooks:` (JavaScript hooks with their settings, commands, Claude Code hooks). */
  readonly hookEntries: readonly HookEntry[];
  /** opencode's `permission:` rules by tool name (`*`: every tool), enforced by the app. */
  readonly permissions?: AgentPermissions;
  /** `timeout_ms` of the object entries of `tools:`, by tool name. */
  readonly toolTimeouts?: ReadonlyMap<string, number>;
  /** The file line of each tool and hook name, keyed `tools:NAME` and `hooks:NAME`, and of `model`. */
  readonly lines: ReadonlyMap<string, number>;
  /** Tools written as Claude Code's `mcp__server__tool`: a warning, not an error, when no server matches. */
  readonly peerMcpTools: ReadonlySet<string>;
  /** Sent to the provider (dropped with thinking on Anthropic). */
  readonly temperature?: number;
  /** The default of `--max-turns`. */
  readonly maxTurns?: number;
  /** The default of `--thinking`. */
  readonly thinking?: string;
  /** `agents:`, the ids the `agent` tool may delegate to; absent: every callable agent. */
  readonly agents?: readonly string[];
  /** `sandbox:`, the sandbox of the agent's commands (docs/sandbox.md); absent when unset. */
  readonly sandbox?: SandboxSetting;
  /** What a run of it says on stderr, one line each, naming the file (a project file left out, …). */
  readonly warnings: readonly string[];
  /**
   * What the file sets that rienda ignores, and recovered YAML lines: one line
   * each, naming the file, shown by `rienda agents` and `rienda doctor`, never on a run.
   */
  readonly notes: readonly string[];
  /** Per-agent settings for extensions (`ctx.agent.config`). */
  readonly config: Readonly<Record<string, unknown>>;
  /** The body, without leading blank lines and trailing whitespace. */
  readonly systemPrompt: string;
  /** The whole frontmatter mapping as parsed. */
  readonly frontmatter: Readonly<Record<string, unknown>>;
}

export { AGENT_FIELDS } from "./agent_fields.ts";

/**
 * Reads the agent file at `path`; its id is the file name without `.md`.
 *
 * @throws {AgentFileError} when the file is missing (with a `Deno.errors.NotFound` cause), unreadable or invalid
 */
export async function loadAgentFile(
  path: string,
  options: AgentFileOptions = {},
): Promise<AgentDefinition> {
  let read;
  try {
    read = await readTextFileAtMost(options.readFrom ?? path, MAX_AGENT_FILE_BYTES);
  } catch (error) {
    const reason = error instanceof Deno.errors.NotFound
      ? "agent file does not exist"
      : `cannot read the agent file: ${errorMessage(error)}`;
    throw new AgentFileError(`${path}: ${reason}`, { path, cause: error });
  }
  if (!read.complete) {
    throw new AgentFileError(
      `${path}: the agent file is larger than 1 MiB (an agent file is frontmatter and a prompt; move long material into files the agent reads)`,
      { path },
    );
  }
  return parseAgentFile(read.text, path, basename(path).replace(/\.md$/, ""), options);
}

/** How to read an agent file. */
export interface AgentFileOptions {
  /** A file of a Claude Code or opencode folder: no `tools:` means the default agent's tools. */
  readonly peer?: boolean;
  /** The real path to open, already checked by the caller; `path` still names the file. */
  readonly readFrom?: string;
}

/**
 * Parses the text of an agent file; `path` names it in errors.
 *
 * @throws {AgentFileError} listing every problem of the file, one per line
 */
export function parseAgentFile(
  text: string,
  path: string,
  id: string,
  options: AgentFileOptions = {},
): AgentDefinition {
  const parts = splitFrontmatter(text, path);
  const offset = parts.yamlStartLine - 1;
  const notes: string[] = [];
  let parsed = parseYaml(parts.yaml);
  const recovered = parsed.ok ? undefined : quoteColonValues(parts.yaml);
  const retried = recovered === undefined ? undefined : parseYaml(recovered.yaml);
  if (recovered !== undefined && retried?.ok === true) {
    parsed = retried;
    for (const index of recovered.lines) {
      notes.push(
        `${path}:${index + 1 + offset}: put this value in quotes: it contains ": ", ` +
          `which is not YAML unquoted (read as text)`,
      );
    }
  }
  if (!parsed.ok) {
    const line = parsed.position.line + offset;
    throw new AgentFileError(
      `${path}:${line}:${parsed.position.column}: invalid YAML: ${parsed.message}`,
      { path, line },
    );
  }
  const fields = parsed.source.value ?? {};
  if (!isRecord(fields)) {
    throw new AgentFileError(
      `${path}:${parts.yamlStartLine}: the frontmatter must be a mapping of fields such as ` +
        `"description: Reviews a diff." (found ${describeValue(fields)})`,
      { path, line: parts.yamlStartLine },
    );
  }
  const source = parsed.source;
  const context: FieldContext = {
    problems: [],
    ignored: { keys: [], unknown: [], tools: [] },
    lineOf: (fieldPath, key) => lineIn(source, offset, fieldPath, key),
  };
  checkKeys(fields, context);
  const description = readDescription(fields["description"], context, options.peer === true);
  const name = readName(fields["name"], context);
  const model = readModel(fields["model"], context);
  const tools = readTools(fields["tools"], context, options.peer === true);
  const hooks = readHooks(fields["hooks"], context);
  const toolTimeouts = new Map(
    [...tools.policies].flatMap(([name, { timeoutMs }]) =>
      timeoutMs === undefined ? [] : [[name, timeoutMs] as const]
    ),
  );
  const config = readConfig(fields["config"], context);
  const temperature = readTemperature(fields["temperature"], context);
  const maxTurns = readMaxTurns(fields, context);
  const thinking = readThinking(fields["thinking"], context);
  // `agents:`, else the ids of Claude Code's `Agent(worker, researcher)` entries.
  const agents = readAgents(fields["agents"], context) ??
    (tools.agents.length > 0 ? tools.agents : undefined);
  const sandbox = readSandbox(fields["sandbox"], context);
  const permission = readPermission(fields[PERMISSION_FIELD], context);
  if (context.problems.length > 0) throw agentFileError(path, context.problems);
  // A tool every call of which is denied is not offered at all.
  const offered = tools.names.filter((name) => !deniesAll(rulesFor(permission.rules, name)));
  const unhonoured = permission.unhonoured.length === 0 ? [] : [
    `${path}: permission: ${permission.unhonoured.join(", ")} not honoured: ` +
    "rienda has no such check, so those calls run without being confirmed",
  ];
  const ignored = ignoredWarning(path, context.ignored);
  const lines = new Map<string, number>();
  for (const [tool, line] of tools.lines) lines.set(`tools:${tool}`, line);
  for (const [hook, line] of hooks.lines) lines.set(`hooks:${hook}`, line);
  const modelLine = context.lineOf(["model"], false);
  if (model !== undefined && modelLine !== undefined) lines.set("model", modelLine);
  return {
    id,
    path,
    description,
    ...(name === undefined || name === id ? {} : { name }),
    ...(model === undefined ? {} : { model }),
    tools: offered,
    hooks: hooks.names,
    hookEntries: hooks.entries,
    ...(toolTimeouts.size === 0 ? {} : { toolTimeouts }),
    lines,
    peerMcpTools: tools.peerMcp,
    config,
    ...(temperature === undefined ? {} : { temperature }),
    ...(maxTurns === undefined ? {} : { maxTurns }),
    ...(thinking === undefined ? {} : { thinking }),
    ...(agents === undefined ? {} : { agents }),
    ...(sandbox === undefined ? {} : { sandbox }),
    ...(permission.rules.size === 0 ? {} : { permissions: permission.rules }),
    warnings: unhonoured,
    notes: ignored === undefined ? notes : [...notes, ignored],
    systemPrompt: parts.body.replace(/^(?:[ \t]*\n)+/, "").trimEnd(),
    frontmatter: fields,
  };
}

function lineIn(
  source: YamlSource,
  offset: number,
  path: FieldPath,
  key: boolean,
): number | undefined {
  const position = source.locate(path, { key });
  return position === undefined ? undefined : position.line + offset;
}
