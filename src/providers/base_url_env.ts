/**
 * The conventional environment variables that move a built-in provider
 * (docs/providers.md, Base URL variables): `OPENAI_BASE_URL`,
 * `ANTHROPIC_BASE_URL`, `GROQ_BASE_URL`, `TOGETHER_BASE_URL` and `OLLAMA_HOST`,
 * read as each vendor's own SDK or CLI reads them. `base_url` in config.yaml
 * wins over them.
 *
 * @module
 */

import type { BuiltinProviderName } from "../config/builtin_names.ts";

/** How one variable's value becomes a base URL. */
interface BaseUrlVariable {
  readonly name: string;
  /**
   * The API path rienda's base URL has beyond what the vendor's SDK takes
   * (`https://api.anthropic.com` → `/v1`); appended unless the value ends with it.
   */
  readonly suffix: string;
  /** `host[:port]` with an optional scheme, as Ollama reads `OLLAMA_HOST`. */
  readonly hostForm?: true;
}

/** The variable of each built-in provider that has one by convention. */
export const BASE_URL_VARIABLES: Readonly<Partial<Record<BuiltinProviderName, BaseUrlVariable>>> = {
  openai: { name: "OPENAI_BASE_URL", suffix: "" },
  anthropic: { name: "ANTHROPIC_BASE_URL", suffix: "/v1" },
  groq: { name: "GROQ_BASE_URL", suffix: "/openai/v1" },
  together: { name: "TOGETHER_BASE_URL", suffix: "" },
  ollama: { name: "OLLAMA_HOST", suffix: "/v1", hostForm: true },
};

/** A base-URL variable whose value is not a usable URL. */
export class BaseUrlVariableError extends Error {
  override name = "BaseUrlVariableError";
}

/**
 * The base URL the environment gives built-in provider `name`; undefined when
 * it has no variable or the variable is unset or empty.
 *
 * @throws {BaseUrlVariableError} when the value is not an http(s) URL
 */
export function baseUrlFromEnv(
  name: string,
  env: (name: string) => string | undefined,
): string | undefined {
  const variable = Object.hasOwn(BASE_URL_VARIABLES, name)
    ? BASE_URL_VARIABLES[name as BuiltinProviderName]
    : undefined;
  const value = variable === undefined ? undefined : env(variable.name)?.trim();
  if (variable === undefined || value === undefined || value === "") return undefined;
  const text = variable.hostForm === true ? ollamaHostUrl(value) : value;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid(variable, value);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw invalid(variable, value);
  const base = `${url.origin}${url.pathname}`.replace(/\/+$/, "");
  return base.endsWith(variable.suffix) ? base : `${base}${variable.suffix}`;
}

/** `OLLAMA_HOST` as the Ollama CLI reads it: no scheme means http and port 11434. */
function ollamaHostUrl(value: string): string {
  if (value.includes("://")) return value;
  const hostEnd = value.indexOf("/") === -1 ? value.length : value.indexOf("/");
  const host = value.slice(0, hostEnd);
  const bareIpv6 = !host.startsWith("[") && host.split(":").length > 2;
  const withPort = bareIpv6
    ? `[${host}]:11434`
    : /^(\[.*\]|[^:]*):\d+$/.test(host)
    ? host
    : `${host}:11434`;
  return `http://${withPort}${value.slice(hostEnd)}`;
}

function invalid(variable: BaseUrlVariable, value: string): BaseUrlVariableError {
  const example = variable.hostForm === true ? "127.0.0.1:11434" : "https://gateway.example.com";
  return new BaseUrlVariableError(
    `${variable.name} is not an http(s) URL (found "${value}"): set it to e.g. ${example}, or unset it`,
  );
}
