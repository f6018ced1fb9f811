/**
 * `ctx.http.fetch`: any status comes back as `{ status, headers, body }`,
 * header names lower-cased, the body decoded as UTF-8 and capped at
 * {@link MAX_HTTP_BODY_BYTES} on a character boundary. Redirects are
 * followed, but a credential header the extension set (`Authorization`,
 * `Cookie`, `x-api-key`, …) is not sent to another origin (`host/redirects.ts`).
 * The host of the URL, and of every redirect, must be in the grant.
 *
 * @module
 */

import { readAtMost } from "../../host/read_at_most.ts";
import { VERSION } from "../../base/version.ts";
import { BridgeError, readArguments } from "./arguments.ts";
import type { BridgeFunction, Invocation } from "./bridge_function.ts";
import { errorMessage } from "../../base/unknown.ts";
import { fetchFollowingRedirects } from "../../host/redirects.ts";
import { isCredentialHeader } from "../../secrets/secret_names.ts";
import { checkHost } from "./access.ts";

/** The most body bytes returned to the guest (reference: 256 KiB). */
export const MAX_HTTP_BODY_BYTES = 256 * 1024;

/** The first `limit` bytes of `body`, ending on a whole UTF-8 character. */
export async function readCappedBody(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
): Promise<string> {
  const { bytes, complete } = await readAtMost(body, limit);
  let end = bytes.length;
  if (!complete) {
    // Cut by the cap: drop a character cut in half (back up to its lead byte).
    let lead = end;
    while (lead > 0 && ((bytes[lead - 1] ?? 0) & 0xc0) === 0x80) lead--;
    const first = bytes[lead - 1] ?? 0;
    const length = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
    if (lead > 0 && end - (lead - 1) < length) end = lead - 1;
  }
  return new TextDecoder().decode(bytes.subarray(0, end));
}

function parseUrl(fn: string, url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new BridgeError(`${fn}: invalid URL: "${url}"`, "TypeError");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new BridgeError(
      `${fn}: only http and https URLs are supported (found "${url}")`,
      "TypeError",
    );
  }
  return parsed;
}

async function fetchForGuest(args: readonly unknown[], { signal, grant }: Invocation) {
  const fn = "ctx.http.fetch";
  const reader = readArguments(fn, args);
  const url = parseUrl(fn, reader.string(0, "url"));
  checkHost(grant, fn, url);
  const options = reader.options(1);
  const method = (options.string("method") ?? "GET").toUpperCase();
  const headers = new Headers(options.stringMap("headers") ?? {});
  const body = options.string("body");
  const timeoutMs = options.waitMs("timeout_ms");
  if (!headers.has("user-agent")) headers.set("user-agent", `rienda/${VERSION}`);
  const timeout = timeoutMs === undefined ? null : AbortSignal.timeout(timeoutMs);
  try {
    const { response } = await fetchFollowingRedirects(url, {
      method,
      headers,
      body,
      signal: timeout === null ? signal : AbortSignal.any([signal, timeout]),
    }, {
      crossOrigin: { kind: "drop_credentials", isCredential: isCredentialHeader },
      ...(grant.layers.length === 0
        ? {}
        : { onRedirect: (to: URL) => checkHost(grant, fn, to, true) }),
    });
    const responseHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      responseHeaders[name.toLowerCase()] = value;
    });
    const text = await readCappedBody(response.body, MAX_HTTP_BODY_BYTES);
    return { status: response.status, headers: responseHeaders, body: text };
  } catch (error) {
    if (error instanceof BridgeError) throw error;
    if (timeout?.aborted && !signal.aborted) {
      throw new BridgeError(
        `${fn}: the request timed out after ${timeoutMs} ms: ${method} ${url.href}`,
      );
    }
    const detail = errorMessage(error);
    throw new BridgeError(`${fn}: ${method} ${url.href} failed: ${detail}`, "Error", {
      cause: error,
    });
  }
}

/** The `ctx.http` functions. */
export function httpFunctions(): Record<string, BridgeFunction> {
  return { "http.fetch": (args, invocation) => fetchForGuest(args, invocation) };
}
