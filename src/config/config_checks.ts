/**
 * Checks of `config.yaml` that a JSON Schema cannot word well: model
 * references, provider names and presets, URLs and what a provider needs.
 *
 * @module
 */

import { BUILTIN_PROVIDER_NAMES, isBuiltinProviderName } from "./builtin_names.ts";
import type { RawConfig, RawProviderConfig } from "./config_schema.ts";
import { isModelRef, modelRefProblem, PROVIDER_NAME_REGEXP } from "./model_ref.ts";
import { BARE_MODEL_REGEXP, type ModelNameSources, resolveModelName } from "./model_names.ts";
import type { SchemaIssue } from "./schema_issues.ts";
import { parseCapabilitySet } from "../sandbox/capability_set.ts";
import { parseSandboxSetting } from "../sandbox/sandbox_setting.ts";
import { AGENT_ID_RULE, isValidAgentId, isValidName } from "../base/names.ts";
import { errorMessage } from "../base/unknown.ts";

/** A name an environment variable may have. */
export const ENV_NAME_REGEXP = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** An HTTP header name: RFC 9110 token characters. */
export const HEADER_NAME_REGEXP = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

/** Problems of a document that already matches the schema; none when it is valid. */
export function checkConfig(raw: RawConfig): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  // default_model may be a bare name: an alias or a model a provider knows (model_names.ts).
  const refProblem = raw.default_model === undefined
    ? undefined
    : BARE_MODEL_REGEXP.test(raw.default_model)
    ? nameProblem(raw.default_model, rawModelNames(raw))
    : modelRefProblem(raw.default_model);
  if (refProblem !== undefined) issues.push({ path: ["default_model"], message: refProblem });
  if (raw.default_agent !== undefined && !isValidAgentId(raw.default_agent)) {
    issues.push({
      path: ["default_agent"],
      message: `invalid agent id ${JSON.stringify(raw.default_agent)} (${AGENT_ID_RULE})`,
    });
  }
  issues.push(...checkModelAliases(raw));
  for (const [name, provider] of Object.entries(raw.providers ?? {})) {
    issues.push(...checkProvider(name, provider ?? {}));
  }
  issues.push(...checkExtensions(raw));
  if (raw.sandbox !== undefined && raw.sandbox !== null) {
    for (const problem of parseSandboxSetting(raw.sandbox).problems) {
      issues.push({ path: ["sandbox", ...problem.path], message: problem.message });
    }
  }
  return issues;
}

/** What model names of `raw` resolve through (before its aliases are checked). */
export function rawModelNames(raw: RawConfig): ModelNameSources {
  const providers = Object.entries(raw.providers ?? {}).map(([name, provider]) =>
    [name, { models: provider?.models ?? {} }] as const
  );
  return {
    modelAliases: { ...raw.model_aliases },
    providers: Object.fromEntries(providers),
    file: null,
  };
}

function nameProblem(name: string, sources: ModelNameSources): string | undefined {
  try {
    resolveModelName(name, sources);
    return undefined;
  } catch (error) {
    return errorMessage(error);
  }
}

/** `model_aliases:`: bare names → `provider/model` of a built-in or configured provider. */
function checkModelAliases(raw: RawConfig): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const providers = [...BUILTIN_PROVIDER_NAMES, ...Object.keys(raw.providers ?? {})];
  for (const [alias, target] of Object.entries(raw.model_aliases ?? {})) {
    if (!BARE_MODEL_REGEXP.test(alias)) {
      issues.push({
        path: ["model_aliases", alias],
        key: true,
        message: `invalid alias ${JSON.stringify(alias)} (a bare model name: no "/", no spaces)`,
      });
    }
    const problem = modelRefProblem(target);
    const provider = target.slice(0, target.indexOf("/"));
    if (problem !== undefined) {
      issues.push({ path: ["model_aliases", alias], message: problem });
    } else if (!providers.includes(provider)) {
      issues.push({
        path: ["model_aliases", alias],
        message: `unknown provider "${provider}" (known: ${
          [...new Set(providers)].join(", ")
        }; add it under providers:)`,
      });
    }
  }
  return issues;
}

/** Names, host patterns and paths of `extensions.<name>.capabilities` (the schema checks the shape). */
function checkExtensions(raw: RawConfig): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  for (const [name, entry] of Object.entries(raw.extensions ?? {})) {
    if (name === "require_capabilities") continue;
    if (!isValidName(name)) {
      issues.push({
        path: ["extensions", name],
        key: true,
        message: `invalid extension name ${JSON.stringify(name)} ` +
          `(a tool or hook name: 1 to 64 letters, digits, "_" or "-")`,
      });
    }
    if (typeof entry !== "object" || entry === null) continue;
    for (const problem of parseCapabilitySet(entry.capabilities).problems) {
      issues.push({
        path: ["extensions", name, "capabilities", ...problem.path],
        message: problem.message,
      });
    }
  }
  return issues;
}

function checkProvider(name: string, provider: RawProviderConfig): SchemaIssue[] {
  const at = ["providers", name];
  const issues: SchemaIssue[] = [];
  if (!PROVIDER_NAME_REGEXP.test(name)) {
    issues.push({
      path: at,
      key: true,
      message: `invalid provider name ${JSON.stringify(name)} ` +
        `(use lowercase letters, digits, "_" and "-", starting with a letter or digit)`,
    });
  }
  if (provider.preset !== undefined && !isBuiltinProviderName(provider.preset)) {
    issues.push({
      path: [...at, "preset"],
      message: `unknown preset ${JSON.stringify(provider.preset)} ` +
        `(expected one of: ${BUILTIN_PROVIDER_NAMES.join(", ")})`,
    });
  }
  if (provider.base_url !== undefined && !isHttpUrl(provider.base_url)) {
    issues.push({
      path: [...at, "base_url"],
      message: `must be an http or https URL such as http://127.0.0.1:11434/v1 ` +
        `(found ${JSON.stringify(provider.base_url)})`,
    });
  }
  if (provider.api_key_env !== undefined && !ENV_NAME_REGEXP.test(provider.api_key_env)) {
    // The value is not shown: a key pasted here by mistake must not be printed.
    issues.push({
      path: [...at, "api_key_env"],
      message: `must be the name of an environment variable such as MY_API_KEY ` +
        `(the value is not shown, as it may be a key: put the key in a variable and its name here)`,
    });
  }
  for (const header of Object.keys(provider.headers ?? {})) {
    if (!HEADER_NAME_REGEXP.test(header)) {
      issues.push({
        path: [...at, "headers", header],
        key: true,
        message: `invalid HTTP header name ${JSON.stringify(header)}`,
      });
    }
  }
  for (const alias of Object.keys(provider.models ?? {})) {
    if (!isModelRef(`${name}/${alias}`)) {
      issues.push({
        path: [...at, "models", alias],
        key: true,
        message: `invalid model alias ${JSON.stringify(alias)} ` +
          `(no spaces, and no empty part between "/")`,
      });
    }
  }
  issues.push(...checkEndpoint(name, provider));
  return issues;
}

// formats.md: a provider needs a preset, or a protocol and a base_url,
// unless its name is a built-in provider whose fields it overrides.
function checkEndpoint(name: string, provider: RawProviderConfig): SchemaIssue[] {
  if (isBuiltinProviderName(name) || provider.preset !== undefined) return [];
  if (provider.protocol === undefined) {
    return [{
      path: ["providers", name],
      message: `needs a preset or a protocol and a base_url ` +
        `(e.g. "preset: ollama", or "protocol: openai_chat_completions" ` +
        `with "base_url: http://127.0.0.1:11434/v1")`,
    }];
  }
  if (provider.base_url === undefined) {
    return [{
      path: ["providers", name],
      message: `needs a base_url with protocol ${provider.protocol} ` +
        `(e.g. "base_url: https://llm.example.com/v1")`,
    }];
  }
  return [];
}

/** Whether `text` is an absolute http or https URL. */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}
