import assert from "node:assert/strict";
import type { Entry, HeaderEntry, MessageEntry } from "./entries.ts";
import { activeBranch, activeLeafId, branchContext } from "./history.ts";

const HEADER: HeaderEntry = {
  kind: "header",
  version: 1,
  id: "01k5zzzzzzzzzzzzzzzzzzzzzz",
  createdAt: "",
  agent: "coder",
  model: "fake/m",
  workdir: "/w",
};

function say(id: string, parentId: string, role: "user" | "assistant", text: string): MessageEntry {
  const blocks = [{ type: "text" as const, text }];
  return role === "user" ? { kind: "message", id, parentId, createdAt: "", role, blocks } : {
    kind: "message",
    id,
    parentId,
    createdAt: "",
    role,
    blocks,
    responseModel: "m",
    responseStopReason: "end_turn",
    responseUsage: null,
  };
}

function texts(entries: readonly Entry[]): string[] {
  return entries.map((entry) =>
    entry.kind === "message"
      ? (entry.blocks[0]?.type === "text" ? entry.blocks[0].text : "")
      : entry.kind
  );
}

// a1 → b2 → c3 → d4, then a leaf back to b2 and a new branch e5 → f6.
const REWOUND: Entry[] = [
  say("a1", "", "user", "one"),
  say("b2", "a1", "assistant", "two"),
  say("c3", "b2", "user", "three"),
  say("d4", "c3", "assistant", "four"),
  { kind: "leaf", id: "l1", parentId: "d4", createdAt: "", targetId: "b2" },
  say("e5", "b2", "user", "five"),
  say("f6", "e5", "assistant", "six"),
];

Deno.test("activeBranch() follows parentId back from the last entry", () => {
  const entries = REWOUND.slice(0, 4);
  assert.deepEqual(texts(activeBranch({ header: HEADER, entries })), [
    "one",
    "two",
    "three",
    "four",
  ]);
});

Deno.test("activeBranch() honours a leaf entry: the abandoned branch is left out", () => {
  assert.deepEqual(texts(activeBranch({ header: HEADER, entries: REWOUND })), [
    "one",
    "two",
    "five",
    "six",
  ]);
});

Deno.test("activeBranch() ends at the leaf's target when the leaf is the last entry", () => {
  const entries = REWOUND.slice(0, 5);
  assert.equal(activeLeafId(entries), "b2");
  assert.deepEqual(texts(activeBranch({ header: HEADER, entries })), ["one", "two"]);
  const toStart: Entry[] = [...entries, {
    kind: "leaf",
    id: "l2",
    parentId: "b2",
    createdAt: "",
    targetId: "",
  }];
  assert.equal(activeLeafId(toStart), "");
  assert.deepEqual(activeBranch({ header: HEADER, entries: toStart }), []);
});

Deno.test("activeBranch() keeps unknown kinds in the chain and stops on a forward reference", () => {
  const entries: Entry[] = [
    say("a1", "", "user", "one"),
    { kind: "unknown", id: "u1", parentId: "a1", raw: { kind: "label" } },
    say("b2", "u1", "assistant", "two"),
    { kind: "unknown", id: null, parentId: null, raw: { kind: "note" } },
  ];
  assert.deepEqual(texts(activeBranch({ header: HEADER, entries })), ["one", "unknown", "two"]);
  const loop: Entry[] = [{ kind: "unknown", id: "u1", parentId: "u2", raw: {} }, {
    kind: "unknown",
    id: "u2",
    parentId: "u1",
    raw: {},
  }];
  assert.equal(activeBranch({ header: HEADER, entries: loop }).length, 2);
});

Deno.test("branchContext() holds the llm messages of the active branch only", () => {
  const { messages } = branchContext({ header: HEADER, entries: REWOUND });
  assert.deepEqual(messages.map((message) => message.role), [
    "user",
    "assistant",
    "user",
    "assistant",
  ]);
  assert.deepEqual(messages[2], { role: "user", blocks: [{ type: "text", text: "five" }] });
});

Deno.test("branchContext() applies the last switches and compaction of the branch", () => {
  const entries: Entry[] = [
    ...REWOUND,
    { kind: "model", id: "m1", parentId: "f6", createdAt: "", model: "openai/gpt-4o" },
    {
      kind: "compaction",
      id: "k1",
      parentId: "m1",
      createdAt: "",
      summary: "S",
      keptId: "e5",
      tokensBefore: 10,
    },
    { kind: "agent", id: "g1", parentId: "k1", createdAt: "", agent: "reviewer" },
    { kind: "thinking", id: "t1", parentId: "g1", createdAt: "", thinking: "high" },
    say("h7", "t1", "user", "seven"),
  ];
  const context = branchContext({ header: HEADER, entries });
  assert.equal(context.agent, "reviewer");
  assert.equal(context.model, "openai/gpt-4o");
  assert.equal(context.thinking, "high");
  assert.equal(context.compaction?.summary, "S");
  assert.deepEqual(
    context.messages.map((message) =>
      message.blocks[0]?.type === "text" ? message.blocks[0].text : ""
    ),
    ["five", "six", "seven"],
  );
  assert.deepEqual(context.messageIds, ["e5", "f6", "h7"]);
});

Deno.test("branchContext() ignores switches on an abandoned branch", () => {
  const entries: Entry[] = [
    say("a1", "", "user", "one"),
    { kind: "model", id: "m1", parentId: "a1", createdAt: "", model: "openai/gpt-4o" },
    { kind: "leaf", id: "l1", parentId: "m1", createdAt: "", targetId: "a1" },
  ];
  const context = branchContext({ header: HEADER, entries });
  assert.equal(context.model, "fake/m");
  assert.equal(context.agent, "coder");
  assert.equal(context.thinking, null);
  assert.equal(context.compaction, null);
  assert.equal(context.messages.length, 1);
});
