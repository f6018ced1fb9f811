/**
 * The model part of a run: its target's `provider/model` → the model client
 * (or the cassette's recording or replaying one), with the agent's
 * temperature, the reasoning level checked, and a refused key that names its
 * provider and where the key came from.
 *
 * @module
 */

import type { Config } from "../config/config.ts";
import { parseModelRef } from "../config/model_ref.ts";
import type { ModelClient } from "../llm/model_events.ts";
import { createModelClient } from "../providers/client.ts";
import type { KeyLookupInputs } from "./agent_model.ts";
import type { RunCassette } from "./cassette.ts";
import { type ContinuedSession, sessionModelError } from "./continue_session.ts";
import { withKeyHint } from "./key_hint.ts";
import { type ResolvedModel, resolveModel, ThinkingLevelError } from "./resolve_model.ts";
import type { RunTarget } from "./run_target.ts";
import type { SecretSet } from "../secrets/secrets.ts";

/** What {@link runModel} builds the client from. */
export interface RunModelInputs extends KeyLookupInputs {
  readonly config: Config;
  readonly target: RunTarget;
  /** The continued session: a failure of its own model says so and suggests -m. */
  readonly session: Pick<ContinuedSession, "id"> | null;
  readonly cassette?: RunCassette | undefined;
  /** The run's secrets: the key is remembered into them, failures masked with them. */
  readonly secrets: SecretSet;
}

/** A run's model client and what it was built from. */
export interface RunModel {
  readonly client: ModelClient;
  readonly resolved: ResolvedModel;
}

/**
 * Resolves the target's model and builds its client (no request is made).
 *
 * @throws {Error} for an unknown provider, a missing key (not with `--replay`)
 * or a reasoning level the model does not accept; the message names the fix
 */
export function runModel(inputs: RunModelInputs): RunModel {
  const { config, target, session, cassette } = inputs;
  const { agent, modelRef } = target;
  let resolved: ResolvedModel;
  try {
    resolved = resolveModel(config, modelRef, {
      env: inputs.env,
      credentials: inputs.credentials,
      thinking: target.thinking,
      keyOptional: cassette?.replay,
    });
  } catch (error) {
    if (session === null || !target.modelFromSession || error instanceof ThinkingLevelError) {
      throw error;
    }
    throw sessionModelError(session, modelRef, error);
  }
  // The agent's temperature wins over config.yaml's for the model.
  const settings = agent.temperature === undefined
    ? resolved
    : { ...resolved, temperature: agent.temperature };
  const client = withKeyHint(
    cassette === undefined
      ? createModelClient(settings, inputs.secrets)
      : cassette.tap.client(settings, agent.id, inputs.secrets),
    { provider: parseModelRef(modelRef).provider, source: resolved.keySource },
  );
  return { client, resolved };
}
