/**
 * Whether a provider's server answers: an unauthenticated `GET` of its base
 * URL (no key is sent), any HTTP status counting as an answer. `rienda
 * doctor` checks every provider this way; `rienda models` checks the local
 * servers that need no key (ollama, lmstudio) before calling them ready.
 *
 * @module
 */

import { errorMessage } from "../base/unknown.ts";

/** Whether `baseUrl` answered within `timeoutMs`, and a short text saying so. */
export async function reachability(
  baseUrl: string,
  timeoutMs: number,
): Promise<{ ok: boolean; text: string }> {
  try {
    const response = await fetch(baseUrl, { signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return { ok: true, text: `${baseUrl} reachable (HTTP ${response.status})` };
  } catch (error) {
    const reason = error instanceof DOMException && error.name === "TimeoutError"
      ? `no answer in ${timeoutMs / 1000}s`
      : errorMessage(error instanceof Error && error.cause !== undefined ? error.cause : error);
    // "error sending request for url (…): client error (Connect): tcp connect error: …" → the cause.
    const cause = /\(Connect\): (.*)$/.exec(reason)?.[1] ?? reason;
    return { ok: false, text: `${baseUrl} unreachable: ${cause}` };
  }
}
