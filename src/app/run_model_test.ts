import assert from "node:assert/strict";
import { parseAgentFile } from "../agents/agent_file.ts";
import { emptyConfig } from "../config/config.ts";
import { SecretSet } from "../secrets/secrets.ts";
import { runModel } from "./run_model.ts";

const config = emptyConfig(null);
const keyed = { env: (name: string) => (name === "OPENAI_API_KEY" ? "sk-test" : undefined) };

function target(modelRef: string, frontmatter = "", modelFromSession = false) {
  const agent = parseAgentFile(`---\ndescription: d\n${frontmatter}---\nBody.\n`, "/a/x.md", "x");
  return { agent, modelRef, thinking: undefined, modelFromSession };
}

Deno.test("runModel() builds the client of the target's model and says where its key came from", () => {
  const { client, resolved } = runModel({
    config,
    ...keyed,
    credentials: undefined,
    target: target("openai/gpt-4o"),
    session: null,
    secrets: new SecretSet(),
  });
  assert.equal(client.ref, "openai/gpt-4o");
  assert.equal(resolved.modelId, "gpt-4o");
  assert.equal(resolved.keySource.kind, "env");
});

Deno.test("runModel() says a continued session's own model is unavailable and suggests -m", () => {
  const inputs = { config, env: () => undefined, credentials: undefined, secrets: new SecretSet() };
  assert.throws(
    () => runModel({ ...inputs, target: target("openai/gpt-4o", "", true), session: { id: "s1" } }),
    /^Error: session s1 uses model "openai\/gpt-4o", which is not available \(.*\): pass -m PROVIDER\/MODEL/,
  );
  // Asked for with -m: the key's own message, with no word of the session.
  assert.throws(
    () => runModel({ ...inputs, target: target("openai/gpt-4o"), session: { id: "s1" } }),
    (error: Error) => !error.message.includes("session s1"),
  );
});
