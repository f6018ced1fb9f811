/**
 * HTTP redirects followed by hand, so that credentials never follow a
 * redirect to another origin (docs/providers.md, "Redirects"):
 *
 * - a redirect within the same origin (scheme, host and port) keeps every
 *   header;
 * - a redirect to another origin is refused (model providers: the key and
 *   the conversation stay where they were configured to go), or followed
 *   without the headers the caller names as credentials (`ctx.http.fetch`,
 *   the `http` tool);
 * - 301, 302 (for a POST) and 303 turn the request into a bodiless `GET`, as
 *   browsers do; 307 and 308 keep the method and the body; at most
 *   {@link MAX_REDIRECTS} hops, and only to http and https URLs.
 *
 * @module
 */

/** The most redirects one request follows (the fetch standard's limit). */
export const MAX_REDIRECTS = 20;

/** What happens at a redirect to another origin. */
export type CrossOriginRule =
  | { readonly kind: "refuse" }
  /** Follow it, without the headers `isCredential` names. */
  | { readonly kind: "drop_credentials"; readonly isCredential: (name: string) => boolean };

/** A request to send: a string body only (every caller sends text). */
export interface RedirectingRequest {
  readonly method: string;
  readonly headers: Headers;
  readonly body?: string | undefined;
  readonly signal: AbortSignal;
}

/** Options of {@link fetchFollowingRedirects}. */
export interface RedirectOptions {
  readonly crossOrigin: CrossOriginRule;
  /** Called with each redirect's target before it is followed; throwing refuses the hop. */
  readonly onRedirect?: (to: URL) => void;
  /** The fetch to use; the global one by default (tests inject a fake). */
  readonly fetch?: typeof fetch;
}

/** The last response, and the URL that gave it. */
export interface RedirectedResponse {
  readonly response: Response;
  readonly url: URL;
}

/** A redirect that the rules do not follow; `to` is where it pointed. */
export class RedirectError extends Error {
  /** Creates the error for a hop from `from` to `to`. */
  constructor(message: string, readonly from: URL, readonly to: URL | null) {
    super(message);
    this.name = "RedirectError";
  }
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Where a response redirects to, or null when it is not a redirect. */
function redirectTarget(response: Response, from: URL): URL | null {
  if (!REDIRECT_STATUSES.has(response.status)) return null;
  const location = response.headers.get("location");
  if (location === null) return null;
  try {
    return new URL(location, from);
  } catch {
    throw new RedirectError(`${from.href} redirected to an invalid URL`, from, null);
  }
}

/**
 * Sends `request` to `url`, following redirects by the rules of this module.
 *
 * @throws {RedirectError} for a refused cross-origin hop, a non-http target
 * or too many redirects; whatever `fetch` throws otherwise
 */
export async function fetchFollowingRedirects(
  url: URL,
  request: RedirectingRequest,
  options: RedirectOptions,
): Promise<RedirectedResponse> {
  const fetchFunction = options.fetch ?? fetch;
  let current = url;
  let { method, body } = request;
  const headers = new Headers(request.headers);
  for (let hops = 0;; hops++) {
    const response = await fetchFunction(current.href, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
      redirect: "manual",
      signal: request.signal,
    });
    const target = redirectTarget(response, current);
    if (target === null) return { response, url: current };
    await response.body?.cancel().catch(() => {});
    if (hops + 1 > MAX_REDIRECTS) {
      throw new RedirectError(`more than ${MAX_REDIRECTS} redirects from ${url.href}`, url, target);
    }
    if (target.protocol !== "http:" && target.protocol !== "https:") {
      throw new RedirectError(
        `${current.href} redirected to ${target.protocol} (only http and https are followed)`,
        current,
        target,
      );
    }
    options.onRedirect?.(target);
    if (target.origin !== current.origin) {
      crossOrigin(options.crossOrigin, current, target, headers);
    }
    const status = response.status;
    if (
      status === 303 ? method !== "HEAD" : (status === 301 || status === 302) && method === "POST"
    ) {
      method = "GET";
      body = undefined;
      headers.delete("content-type");
      headers.delete("content-length");
    }
    current = target;
  }
}

/** Applies the rule for a hop to another origin: throws, or strips the credential headers. */
function crossOrigin(rule: CrossOriginRule, from: URL, to: URL, headers: Headers): void {
  switch (rule.kind) {
    case "refuse":
      throw new RedirectError(
        `${from.href} redirected to another origin (${to.origin})`,
        from,
        to,
      );
    case "drop_credentials":
      for (const name of [...headers.keys()]) {
        if (rule.isCredential(name)) headers.delete(name);
      }
      return;
    default: {
      const unknownRule: never = rule;
      throw new TypeError(`unknown cross-origin rule ${JSON.stringify(unknownRule)}`);
    }
  }
}
