/**
 * A `provider/model` reference → the settings of a model client: protocol,
 * base URL, key, headers and model settings, from config.yaml.
 *
 * @module
 */

import type { Config } from "../config/config.ts";
import { parseModelRef } from "../config/model_ref.ts";
import type { ModelClientOptions } from "../providers/client.ts";

/** Resolves `ref` against the configuration; errors say what to configure. */
export function resolveModel(
  config: Config,
  ref: string,
  env: (name: string) => string | undefined,
): ModelClientOptions {
  const { provider, model } = parseModelRef(ref);
  const settings = config.providers[provider];
  const where = config.file ?? "config.yaml";
  if (settings === undefined) {
    const configured = Object.keys(config.providers).join(", ") || "none";
    throw new Error(
      `unknown provider "${provider}" in model "${ref}" (configured: ${configured}); add it under providers: in ${where}`,
    );
  }
  if (settings.protocol === undefined || settings.baseUrl === undefined) {
    throw new Error(`${where}: providers.${provider}: set protocol and base_url`);
  }
  let apiKey: string | null = settings.apiKey ?? null;
  if (apiKey === null && settings.apiKeyEnv !== undefined) {
    apiKey = env(settings.apiKeyEnv) ?? null;
    if (apiKey === null || apiKey === "") {
      throw new Error(
        `provider "${provider}" needs an API key: set the environment variable ${settings.apiKeyEnv} (${where}: providers.${provider}.api_key_env)`,
      );
    }
  }
  const modelSettings = settings.models[model];
  return {
    ref,
    protocol: settings.protocol,
    baseUrl: settings.baseUrl,
    apiKey,
    headers: settings.headers,
    modelId: modelSettings?.id ?? model,
    ...(modelSettings?.maxTokens === undefined ? {} : { maxTokens: modelSettings.maxTokens }),
    ...(modelSettings?.temperature === undefined ? {} : { temperature: modelSettings.temperature }),
    ...(modelSettings?.topP === undefined ? {} : { topP: modelSettings.topP }),
  };
}
