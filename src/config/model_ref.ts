/**
 * Model references: `provider/model`, as written in agent files, `-m` and
 * `default_model` (docs/formats.md).
 *
 * @module
 */

/** A parsed `provider/model` reference. */
export interface ModelRef {
  /** The provider name, e.g. `openrouter`. */
  readonly provider: string;
  /** The model alias or wire id, which may contain `/`, e.g. `anthropic/claude-sonnet-4`. */
  readonly model: string;
}

/** Provider names: lowercase letters, digits, `_` and `-`, starting with a letter or digit. */
export const PROVIDER_NAME_REGEXP = /^[a-z0-9][a-z0-9_-]*$/;

/** A model part: non-empty segments separated by `/`, no whitespace or control characters. */
const MODEL_REGEXP = /^[^\s/\p{Cc}]+(?:\/[^\s/\p{Cc}]+)*$/u;

/** A model reference that is not `provider/model`. */
export class ModelRefError extends Error {
  /** The reference as given. */
  readonly ref: string;

  /** Builds the error for `ref`. */
  constructor(ref: string) {
    super(
      `malformed model reference ${
        JSON.stringify(ref)
      } (expected provider/model, e.g. openai/gpt-4o)`,
    );
    this.name = "ModelRefError";
    this.ref = ref;
  }
}

/**
 * Splits a `provider/model` reference at its first `/`.
 *
 * @throws {ModelRefError} when the provider or the model part is malformed
 * @example
 * ```ts
 * import { parseModelRef } from "./model_ref.ts";
 * parseModelRef("openrouter/anthropic/claude-sonnet-4");
 * // { provider: "openrouter", model: "anthropic/claude-sonnet-4" }
 * ```
 */
export function parseModelRef(ref: string): ModelRef {
  const slash = ref.indexOf("/");
  if (slash < 0) throw new ModelRefError(ref);
  const provider = ref.slice(0, slash);
  const model = ref.slice(slash + 1);
  if (!PROVIDER_NAME_REGEXP.test(provider) || !MODEL_REGEXP.test(model)) {
    throw new ModelRefError(ref);
  }
  return { provider, model };
}

/** Whether `ref` is a well-formed `provider/model` reference. */
export function isModelRef(ref: string): boolean {
  return modelRefProblem(ref) === undefined;
}

/** The {@link ModelRefError} message for `ref`, or undefined when `ref` is well formed. */
export function modelRefProblem(ref: string): string | undefined {
  try {
    parseModelRef(ref);
    return undefined;
  } catch (error) {
    if (error instanceof ModelRefError) return error.message;
    throw error;
  }
}
