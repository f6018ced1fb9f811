/**
 * Agent files: Markdown with a YAML frontmatter (description, model, tools,
 * hooks, config) whose body is the system prompt (docs/formats.md).
 *
 * - Every problem names the file, the line where known, the field and the
 *   fix: `/h/.rienda/agents/review.md:4: tools[1]: invalid tool name "a b" (…)`.
 * - Unknown keys are errors; `max_turns`, `temperature` and `thinking` are
 *   reserved for features not built yet.
 * - Duplicate tool and hook names collapse to the first.
 *
 * @module
 */

import { basename } from "node:path";
import { describeValue } from "../config/describe_value.ts";
import type { FieldPath } from "../field_path.ts";
import { isRecord } from "../unknown.ts";
import { parseYaml, type YamlSource } from "../config/yaml_source.ts";
import { AgentFileError, agentFileError } from "./agent_file_error.ts";
import {
  checkKeys,
  type FieldContext,
  readConfig,
  readDescription,
  readModel,
  readNames,
} from "./agent_fields.ts";
import { splitFrontmatter } from "./frontmatter.ts";
import type { HookPolicy } from "./entry_options.ts";
import { errorMessage } from "../unknown.ts";
import { readTextFileAtMost } from "../read_at_most.ts";

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
  /** A `provider/model` reference; absent when `default_model` or `-m` must give one. */
  readonly model?: string;
  /** Tools the model may call, in order, without duplicates. */
  readonly tools: readonly string[];
  /** Hooks in execution order, without duplicates. */
  readonly hooks: readonly string[];
  /** `fail_closed` / `timeout_ms` of the object entries of `hooks:`, by hook name. */
  readonly hookPolicies?: ReadonlyMap<string, HookPolicy>;
  /** `timeout_ms` of the object entries of `tools:`, by tool name. */
  readonly toolTimeouts?: ReadonlyMap<string, number>;
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
export async function loadAgentFile(path: string): Promise<AgentDefinition> {
  let read;
  try {
    read = await readTextFileAtMost(path, MAX_AGENT_FILE_BYTES);
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
  return parseAgentFile(read.text, path, basename(path).replace(/\.md$/, ""));
}

/**
 * Parses the text of an agent file; `path` names it in errors.
 *
 * @throws {AgentFileError} listing every problem of the file, one per line
 */
export function parseAgentFile(text: string, path: string, id: string): AgentDefinition {
  const parts = splitFrontmatter(text, path);
  const offset = parts.yamlStartLine - 1;
  const parsed = parseYaml(parts.yaml);
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
  const context: FieldContext = {
    problems: [],
    lineOf: (fieldPath, key) => lineIn(parsed.source, offset, fieldPath, key),
  };
  checkKeys(fields, context);
  const description = readDescription(fields["description"], context);
  const model = readModel(fields["model"], context);
  const toolPolicies = new Map<string, HookPolicy>();
  const hookPolicies = new Map<string, HookPolicy>();
  const tools = readNames("tools", fields["tools"], context, toolPolicies);
  const hooks = readNames("hooks", fields["hooks"], context, hookPolicies);
  const toolTimeouts = new Map(
    [...toolPolicies].flatMap(([name, { timeoutMs }]) =>
      timeoutMs === undefined ? [] : [[name, timeoutMs] as const]
    ),
  );
  const config = readConfig(fields["config"], context);
  if (context.problems.length > 0) throw agentFileError(path, context.problems);
  return {
    id,
    path,
    description,
    ...(model === undefined ? {} : { model }),
    tools,
    hooks,
    ...(hookPolicies.size === 0 ? {} : { hookPolicies }),
    ...(toolTimeouts.size === 0 ? {} : { toolTimeouts }),
    config,
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
