/**
 * `ctx.system`: `exec` runs `sh -c` in its own process group (killed whole on
 * timeout or interrupt, `code: -1`), streaming its output live; `which`
 * finds an executable on `PATH`.
 *
 * @module
 */

import { findExecutable } from "../../find_executable.ts";
import { runInProcessGroup } from "../../tools/process_group.ts";
import type { ExtensionRunContext } from "../run_context.ts";
import { BridgeError, readArguments } from "./arguments.ts";
import type { BridgeFunction, Invocation } from "./bridge_function.ts";
import { resolveInWorkdir } from "./paths.ts";
import { errorMessage } from "../../unknown.ts";

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    return false;
  }
}

async function exec(args: readonly unknown[], workdir: string, invocation: Invocation) {
  const fn = "ctx.system.exec";
  const reader = readArguments(fn, args);
  const command = reader.string(0, "command");
  const options = reader.options(1);
  const cwdOption = options.string("cwd");
  const env = options.stringMap("env");
  const timeoutMs = options.waitMs("timeout_ms");
  const cwd = resolveInWorkdir(workdir, cwdOption ?? ".");
  if (!(await isDirectory(cwd))) {
    throw new BridgeError(`${fn}: cwd is not a directory: ${cwdOption ?? workdir}`);
  }
  try {
    const result = await runInProcessGroup({
      command,
      cwd,
      signal: invocation.signal,
      onStdout: invocation.output,
      onStderr: invocation.output,
      ...(env === undefined ? {} : { env }),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });
    return { code: result.code, stdout: result.stdout, stderr: result.stderr };
  } catch (error) {
    const detail = errorMessage(error);
    throw new BridgeError(`${fn}: ${detail}`, "Error", { cause: error });
  }
}

/** The `ctx.system` functions of one run. */
export function systemFunctions(context: ExtensionRunContext): Record<string, BridgeFunction> {
  const { workdir } = context;
  return {
    "system.exec": (args, invocation) => exec(args, workdir, invocation),
    "system.which": (args) =>
      findExecutable(readArguments("ctx.system.which", args).string(0, "name"), {
        path: Deno.env.get("PATH") ?? "",
        cwd: workdir,
      }),
  };
}
