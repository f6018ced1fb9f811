import assert from "node:assert/strict";
import { parseAgentFile } from "../agents/agent_file.ts";
import { emptyConfig, parseConfig } from "../config/config.ts";
import { previewTarget, targetModel } from "./run_target.ts";

const noKeys = { env: () => undefined, credentials: undefined };
const config = emptyConfig(null);

function agentWith(frontmatter: string) {
  return parseAgentFile(`---\ndescription: test\n${frontmatter}---\nYou help.\n`, "/a/x.md", "x");
}

const session = (model: string, thinking: string | null = null) => ({
  id: "s1",
  branch: { agent: "x", agentFile: null, model, thinking },
});

Deno.test("targetModel() takes -m, then the session's, then the agent's, then the first keyed provider", () => {
  const agent = agentWith("model: openai/gpt-4o\nthinking: low\n");
  const inputs = { config, ...noKeys };
  assert.deepEqual(targetModel(inputs, agent, { model: "sonnet" }, session("openai/o3", "high")), {
    modelRef: "anthropic/claude-sonnet-4-5",
    thinking: "high",
    modelFromSession: false,
  });
  assert.deepEqual(targetModel(inputs, agent, {}, session("openai/o3")), {
    modelRef: "openai/o3",
    thinking: "low",
    modelFromSession: true,
  });
  assert.equal(targetModel(inputs, agent, {}, null).modelRef, "openai/gpt-4o");
  const keyed = {
    config,
    env: (name: string) => name === "OPENAI_API_KEY" ? "sk-x" : undefined,
    credentials: undefined,
  };
  assert.match(targetModel(keyed, agentWith(""), {}, null).modelRef, /^openai\//);
  assert.throws(() => targetModel(inputs, agentWith(""), {}, null), /names no model|no model/);
});

Deno.test("targetModel() names the agent file's line for its own unknown model", () => {
  const agent = agentWith("model: nosuch/model\n");
  assert.throws(
    () => targetModel({ config, ...noKeys }, agent, {}, null),
    /^AgentFileError: \/a\/x\.md:3: model: unknown provider "nosuch"/,
  );
});

Deno.test("previewTarget() never throws: a missing key still shows the model and its window", () => {
  const keyless = previewTarget({ config, ...noKeys }, agentWith("model: sonnet\n"), {}, null);
  assert.equal(keyless.modelRef, "anthropic/claude-sonnet-4-5");
  assert.equal(typeof keyless.contextWindow, "number");
  assert.equal(keyless.thinking, null);
  const none = previewTarget({ config, ...noKeys }, agentWith(""), {}, null);
  assert.deepEqual(none, { modelRef: "", thinking: null, contextWindow: null });
  const unknown = previewTarget(
    { config, ...noKeys },
    null,
    { thinking: "off" },
    session("zz/q", "high"),
  );
  assert.deepEqual(unknown, { modelRef: "zz/q", thinking: null, contextWindow: null });
  const aliased = parseConfig("model_aliases:\n  fast: openai/gpt-4o-mini\n", "/h/config.yaml");
  const named = previewTarget(
    { config: aliased, ...noKeys },
    agentWith(""),
    { model: "fast" },
    null,
  );
  assert.equal(named.modelRef, "openai/gpt-4o-mini");
});
