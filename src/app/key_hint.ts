/**
 * A provider that refuses the key (401, 403, an `authentication_error`)
 * says only "bad key": the run's error then names the provider, where its
 * key came from and how to replace it, so the user knows which key to check
 * (docs/providers.md, "Where keys come from").
 *
 * @module
 */

import type { ModelClient, ModelEvent, ModelRequest } from "../llm/model_events.ts";
import { ProviderError } from "../providers/http_errors.ts";
import { describeKeySource, type KeySource } from "./api_key.ts";

/** What a refused key's message names. */
export interface KeyOrigin {
  /** The provider, as config.yaml and `rienda auth login` name it. */
  readonly provider: string;
  readonly source: KeySource;
}

/** The sentence added to a refused key's error. */
export function keyHint({ provider, source }: KeyOrigin): string {
  const replace = `rienda auth login ${provider}`;
  switch (source.kind) {
    case "not_needed":
    case "missing":
      return `provider "${provider}" got no key (none is set): set one with ${replace}`;
    case "config":
    case "env":
    case "credentials":
      return `provider "${provider}" refused the key from ${
        describeKeySource({ name: provider }, source)
      }: check it, or replace it with ${replace}`;
  }
}

/** `client`, whose authentication failures end with {@link keyHint}. */
export function withKeyHint(client: ModelClient, origin: KeyOrigin): ModelClient {
  return {
    ref: client.ref,
    stream: (request: ModelRequest, signal: AbortSignal) =>
      hinted(client.stream(request, signal), origin),
  };
}

async function* hinted(
  events: AsyncIterable<ModelEvent>,
  origin: KeyOrigin,
): AsyncIterable<ModelEvent> {
  try {
    yield* events;
  } catch (error) {
    if (!(error instanceof ProviderError) || error.kind !== "auth") throw error;
    throw new ProviderError("auth", `${error.message}: ${keyHint(origin)}`, {
      ...(error.status === undefined ? {} : { status: error.status }),
      cause: error,
    });
  }
}
