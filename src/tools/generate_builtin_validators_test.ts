import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { builtinTools } from "./builtins.ts";
import {
  BUILTIN_VALIDATORS_TYPES_URL,
  BUILTIN_VALIDATORS_URL,
  generateBuiltinValidators,
  generateBuiltinValidatorTypes,
} from "./generate_builtin_validators.ts";

Deno.test("builtin_validators.js is what generateBuiltinValidators() builds from the built-in tools", async () => {
  const committed = await Deno.readTextFile(BUILTIN_VALIDATORS_URL);
  strictEqual(
    committed === generateBuiltinValidators(),
    true,
    "builtin_validators.js is stale: run deno run -A src/tools/generate_builtin_validators.ts",
  );
});

Deno.test("builtin_validators.d.ts declares one validator per built-in tool", async () => {
  const committed = await Deno.readTextFile(BUILTIN_VALIDATORS_TYPES_URL);
  strictEqual(
    committed === generateBuiltinValidatorTypes(),
    true,
    "builtin_validators.d.ts is stale: run deno run -A src/tools/generate_builtin_validators.ts",
  );
});

Deno.test("each built-in tool's parameters are one constant object, which the validators are keyed by", () => {
  const [first, second] = [builtinTools(), builtinTools()];
  deepStrictEqual(
    first.filter((tool, index) => tool.parameters !== second[index]?.parameters).map((tool) =>
      tool.name
    ),
    [],
  );
});
