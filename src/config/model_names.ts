/**
 * Model references without a provider (`-m sonnet`, `model: gpt-4o`,
 * `default_model: fast`) → `provider/model` (docs/providers.md, "Model
 * names"), in this order:
 *
 * 1. `model_aliases:` of config.yaml;
 * 2. the built-in aliases, {@link BUILTIN_MODEL_ALIASES};
 * 3. the providers that know the name: a provider of config.yaml whose
 *    `models:` lists it, or a built-in provider whose model ids start the
 *    way it does ({@link MODEL_PREFIXES}).
 *
 * No match, or several in step 3, is an error listing the candidates.
 * A reference with a `/` is returned as it is.
 *
 * @module
 */

import type { BuiltinProviderName } from "./builtin_names.ts";

/** `sonnet`, `opus`, `haiku` → Anthropic's current models (kept current here, and in docs/providers.md). */
export const BUILTIN_MODEL_ALIASES: Readonly<Record<string, string>> = {
  sonnet: "anthropic/claude-sonnet-4-5",
  opus: "anthropic/claude-opus-4-5",
  haiku: "anthropic/claude-haiku-4-5",
};

/**
 * How the model ids of the built-in providers begin: a prefix ending in `-`
 * starts the id; another (`o3`) is the whole id or followed by `-` (`o3-mini`).
 */
export const MODEL_PREFIXES: readonly (readonly [BuiltinProviderName, readonly string[]])[] = [
  ["openai", ["gpt-", "o1", "o3", "o4", "chatgpt-", "codex-"]],
  ["anthropic", ["claude-"]],
  ["gemini", ["gemini-"]],
  ["mistral", ["mistral-", "codestral-", "devstral-", "magistral-", "ministral-", "pixtral-"]],
  ["xai", ["grok-"]],
  ["deepseek", ["deepseek-"]],
];

function hasPrefix(name: string, prefix: string): boolean {
  return prefix.endsWith("-")
    ? name.startsWith(prefix)
    : name === prefix || name.startsWith(`${prefix}-`);
}

/** What {@link resolveModelName} reads of the configuration. */
export interface ModelNameSources {
  /** `model_aliases:` of config.yaml. */
  readonly modelAliases: Readonly<Record<string, string>>;
  /** The providers of config.yaml with the model names they list. */
  readonly providers: Readonly<
    Record<string, { readonly models: Readonly<Record<string, unknown>> }>
  >;
  /** config.yaml, named in errors. */
  readonly file: string | null;
}

/** A bare model name: no `/`, no whitespace or control characters. */
export const BARE_MODEL_REGEXP = /^[^\s/\p{Cc}]+$/u;

/**
 * `ref` as `provider/model` (see the module doc).
 *
 * @throws {Error} when no alias or provider matches, or several providers do; the message lists them
 */
export function resolveModelName(ref: string, sources: ModelNameSources): string {
  if (!BARE_MODEL_REGEXP.test(ref)) return ref;
  if (Object.hasOwn(sources.modelAliases, ref)) return sources.modelAliases[ref] ?? ref;
  if (Object.hasOwn(BUILTIN_MODEL_ALIASES, ref)) return BUILTIN_MODEL_ALIASES[ref] ?? ref;
  const candidates = new Set<string>();
  for (const [provider, settings] of Object.entries(sources.providers)) {
    if (Object.hasOwn(settings.models, ref)) candidates.add(`${provider}/${ref}`);
  }
  for (const [provider, prefixes] of MODEL_PREFIXES) {
    if (prefixes.some((prefix) => hasPrefix(ref, prefix))) candidates.add(`${provider}/${ref}`);
  }
  const found = [...candidates];
  if (found.length === 1 && found[0] !== undefined) return found[0];
  const where = sources.file ?? "config.yaml";
  if (found.length > 1) {
    throw new Error(
      `model "${ref}" is ambiguous: ${found.join(", ")} all match ` +
        `(write one of them, or add "${ref}: PROVIDER/MODEL" under model_aliases: in ${where})`,
    );
  }
  const aliases = [...Object.keys(sources.modelAliases), ...Object.keys(BUILTIN_MODEL_ALIASES)];
  const prefixes = MODEL_PREFIXES.flatMap(([, list]) => list).join(", ");
  throw new Error(
    `unknown model "${ref}": no alias (${aliases.join(", ")}) and no provider's model ` +
      `(known prefixes: ${prefixes}) matches; write PROVIDER/MODEL such as openai/gpt-4o, ` +
      `or add "${ref}: PROVIDER/MODEL" under model_aliases: in ${where}`,
  );
}
