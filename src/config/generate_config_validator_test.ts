import { strictEqual } from "node:assert/strict";
import { CONFIG_VALIDATOR_URL, generateConfigValidator } from "./generate_config_validator.ts";

Deno.test("config_validator.js is what generateConfigValidator() builds from CONFIG_SCHEMA", async () => {
  const committed = await Deno.readTextFile(CONFIG_VALIDATOR_URL);
  strictEqual(
    committed === generateConfigValidator(),
    true,
    "config_validator.js is stale: run deno run -A src/config/generate_config_validator.ts",
  );
});
