/**
 * `ctx.env`: read-only access to the environment of the rienda process,
 * limited to the variables of the extension's grant.
 *
 * @module
 */

import { BridgeError, readArguments } from "./arguments.ts";
import type { BridgeFunction } from "./bridge_function.ts";
import { checkEnv } from "./access.ts";

/** `env.get(name)`: the value, or null when the variable is unset. */
export function envFunctions(): Record<string, BridgeFunction> {
  return {
    "env.get": (args, { grant }) => {
      const name = readArguments("ctx.env.get", args).string(0, "name");
      if (name === "" || name.includes("=") || name.includes("\0")) {
        throw new BridgeError(`ctx.env.get: invalid variable name: "${name}"`, "TypeError");
      }
      checkEnv(grant, "ctx.env.get", name);
      return Deno.env.get(name) ?? null;
    },
  };
}
