/**
 * Test support, imported by `*_test.ts` only: a scripted `fetch` where each
 * call plays the next reply and records the request. No network.
 *
 * @module
 */

/** What one call of the fake fetch answers. */
export type FakeReply =
  | {
    readonly kind: "sse";
    /** The body, cut into these chunks (joined, it is the recorded stream). */
    readonly chunks: readonly string[];
    readonly status?: number;
    readonly headers?: Readonly<Record<string, string>>;
  }
  | {
    readonly kind: "status";
    readonly status: number;
    readonly statusText?: string;
    readonly body: string;
    readonly headers?: Readonly<Record<string, string>>;
  }
  | { readonly kind: "network"; readonly message: string }
  /** Sends the chunks, then errors the body as a dropped connection does. */
  | { readonly kind: "broken"; readonly chunks: readonly string[] };

/** One request the fake fetch received. */
export interface RecordedRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: unknown;
}

/** SSE text for a list of JSON chunks, each as one `data:` event, plus `[DONE]` when asked. */
export function sseText(payloads: readonly unknown[], done = true): string {
  const events = payloads.map((payload) => `data: ${JSON.stringify(payload)}\n\n`);
  return events.join("") + (done ? "data: [DONE]\n\n" : "");
}

function bodyOf(chunks: readonly string[], broken: boolean): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let index = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[index++];
      if (chunk !== undefined) controller.enqueue(encoder.encode(chunk));
      else if (broken) controller.error(new TypeError("error reading a body from connection"));
      else controller.close();
    },
  });
}

/** A fake `fetch` playing `replies` in order, and the requests it recorded. */
export function fakeFetch(replies: readonly FakeReply[]) {
  const requests: RecordedRequest[] = [];
  const fetchFunction = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    init?.signal?.throwIfAborted();
    const text = typeof init?.body === "string" ? init.body : "";
    requests.push({
      url: String(input),
      method: init?.method ?? "GET",
      headers: new Headers(init?.headers),
      body: text === "" ? null : JSON.parse(text),
    });
    const reply = replies[requests.length - 1];
    if (reply === undefined) {
      return Promise.resolve(new Response("the script ran out of replies", { status: 500 }));
    }
    switch (reply.kind) {
      case "sse":
        return Promise.resolve(
          new Response(bodyOf(reply.chunks, false), {
            status: reply.status ?? 200,
            headers: { "content-type": "text/event-stream", ...reply.headers },
          }),
        );
      case "status":
        return Promise.resolve(
          new Response(reply.body, {
            status: reply.status,
            statusText: reply.statusText ?? "",
            headers: { ...reply.headers },
          }),
        );
      case "network":
        return Promise.reject(new TypeError("fetch failed", { cause: new Error(reply.message) }));
      case "broken":
        return Promise.resolve(
          new Response(bodyOf(reply.chunks, true), {
            headers: { "content-type": "text/event-stream" },
          }),
        );
      default: {
        const unknownReply: never = reply;
        throw new TypeError(`unknown reply ${JSON.stringify(unknownReply)}`);
      }
    }
  };
  return { fetch: fetchFunction, requests };
}
