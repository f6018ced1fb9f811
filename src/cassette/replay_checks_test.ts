import assert from "node:assert/strict";
import type { Exchange } from "./cassette_format.ts";
import { replayMismatch, type SentRequest } from "./replay_checks.ts";

const body = (messages: unknown[], tools = ["read"]) => ({
  model: "m-1",
  messages: [{ role: "system", content: "today is Monday" }, ...messages],
  tools: tools.map((name) => ({ type: "function", function: { name } })),
});

const recorded = (turn: number, wire: unknown): Exchange => ({
  type: "exchange",
  turn,
  attempt: 1,
  protocol: "openai_chat_completions",
  provider: "p",
  model: "p/m",
  request: { method: "POST", url: "http://x/v1/chat/completions", headers: {}, body: wire },
  response: { kind: "http", status: 200, headers: {}, chunks: [], end: { kind: "complete" } },
});

const sent = (turn: number, wire: unknown, again = false): SentRequest => ({
  turn,
  again,
  protocol: "openai_chat_completions",
  model: "p/m",
  body: wire,
});

const loose = { strict: false, lastTurn: 1 };
const strict = { strict: true, lastTurn: 1 };

Deno.test("the recorded request matches whatever the system prompt says", () => {
  const then = recorded(1, body([{ role: "user", content: "go" }]));
  const now = body([{ role: "user", content: "go" }]);
  (now.messages[0] as { content: string }).content = "today is Tuesday";
  assert.equal(replayMismatch(sent(1, now), then, strict), null);
});

Deno.test("a request past the cassette's end, and a retry it has no attempt for", () => {
  const wire = body([]);
  assert.equal(
    replayMismatch(sent(2, wire), undefined, loose),
    "the run sends more requests than the cassette records (it ends after turn 1)",
  );
  assert.equal(
    replayMismatch(sent(1, wire, true), recorded(2, wire), loose),
    "the run tries the request again, the cassette records no more attempts",
  );
  assert.equal(
    replayMismatch(sent(2, wire), recorded(1, wire), loose),
    "the cassette records more attempts of turn 1 than the run made",
  );
});

Deno.test("tools compare as a set: order is no difference, a renamed tool is", () => {
  const then = recorded(1, body([], ["read", "grep"]));
  assert.equal(replayMismatch(sent(1, body([], ["grep", "read"])), then, loose), null);
  assert.equal(
    replayMismatch(sent(1, body([], ["read", "find"])), then, loose),
    "the request offers the tools find, read, the cassette recorded grep, read (missing grep; new find)",
  );
});

Deno.test("strict: the first differing message, a missing one and an extra one are named", () => {
  const then = recorded(1, body([{ role: "user", content: "go" }, { role: "tool", content: "1" }]));
  assert.equal(
    replayMismatch(
      sent(1, body([{ role: "user", content: "go" }, { role: "tool", content: "2" }])),
      then,
      strict,
    ),
    'message 2 (tool) differs from the cassette at content: recorded "1", sent "2"',
  );
  assert.equal(
    replayMismatch(sent(1, body([{ role: "user", content: "go" }])), then, strict),
    "the conversation sent ends before message 2 (tool) the cassette recorded",
  );
  assert.equal(
    replayMismatch(
      sent(
        1,
        body([{ role: "user", content: "go" }, { role: "tool", content: "1" }, {
          role: "user",
          content: "x",
        }]),
      ),
      then,
      strict,
    ),
    "message 3 (user) is not in the cassette: it recorded 2 messages",
  );
  assert.equal(
    replayMismatch(
      sent(1, body([{ role: "user", content: "go" }, { role: "tool", content: "2" }])),
      then,
      loose,
    ),
    null,
  );
});

Deno.test("a long differing value is quoted in part", () => {
  const then = recorded(1, body([{ role: "user", content: "a".repeat(200) }]));
  const message = replayMismatch(sent(1, body([{ role: "user", content: "b" }])), then, strict) ??
    "";
  assert.ok(message.length < 250, message);
  assert.match(message, /recorded "a+…, sent "b"$/);
});
