/**
 * `ctx.system`: `exec` runs a shell string with `sh -c`, or a program and its
 * arguments without a shell (`["git", "status"]`), in its own process group
 * (killed whole on timeout or interrupt, `code: -1`), streaming its output
 * live unless `quiet`, with `stdin` text written to it; `which` finds an
 * executable on `PATH`. A shell string needs `exec: true` in the grant; a
 * list grants those programs, resolved on rienda's own `PATH` (never the
 * `env` option's) and run by absolute path.
 *
 * @module
 */

import { findExecutable } from "../../host/find_executable.ts";
import { runInProcessGroup } from "../../tools/process_group.ts";
import type { ExtensionRunContext } from "../run_context.ts";
import { BridgeError, readArguments, typeError } from "./arguments.ts";
import type { BridgeFunction, Invocation } from "./bridge_function.ts";
import { resolveInWorkdir } from "./paths.ts";
import { errorMessage } from "../../base/unknown.ts";
import { checkExec } from "./access.ts";
import { isAbsolute } from "node:path";
import type { CommandSandbox } from "../../sandbox/command_sandbox.ts";

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    return false;
  }
}

const FN = "ctx.system.exec";

/** The command argument: a shell string, or a non-empty list of strings (program first). */
function readCommand(value: unknown): string | [string, ...string[]] {
  if (typeof value === "string") return value;
  if (!Array.isArray(value)) {
    throw typeError(FN, "command", "a string or an array of strings", value);
  }
  const items: string[] = [];
  value.forEach((item: unknown, index) => {
    if (typeof item !== "string") throw typeError(FN, `command[${index}]`, "a string", item);
    if (item.includes("\0")) {
      throw new BridgeError(
        `${FN}: command[${index}] must not contain a NUL character`,
        "TypeError",
      );
    }
    items.push(item);
  });
  const [program, ...rest] = items;
  if (program === undefined || program === "") {
    throw new BridgeError(
      `${FN}: command[0] must be a program name (found ${
        program === undefined ? "an empty array" : '""'
      })`,
      "TypeError",
    );
  }
  return [program, ...rest];
}

/** Resolves a listed program on rienda's `PATH` (absolute entries only), so `env.PATH` cannot swap it. */
async function resolveListed(program: string, workdir: string): Promise<string> {
  const path = (Deno.env.get("PATH") ?? "").split(":").filter((dir) => isAbsolute(dir)).join(":");
  const found = program.includes("/") && !isAbsolute(program)
    ? null
    : await findExecutable(program, { path, cwd: workdir });
  if (found === null) throw new BridgeError(`${FN}: program "${program}" is not on PATH`);
  return found;
}

async function exec(
  args: readonly unknown[],
  workdir: string,
  invocation: Invocation,
  sandbox: CommandSandbox | undefined,
) {
  const fn = FN;
  const reader = readArguments(fn, args);
  let command = readCommand(args[0]);
  const options = reader.options(1);
  const cwdOption = options.string("cwd");
  const env = options.stringMap("env");
  const timeoutMs = options.waitMs("timeout_ms");
  const stdin = options.string("stdin");
  const quiet = options.boolean("quiet", false);
  const listed = checkExec(invocation.grant, fn, typeof command === "string" ? null : command[0]);
  if (listed && typeof command !== "string") {
    command = [await resolveListed(command[0], workdir), ...command.slice(1)];
  }
  const cwd = resolveInWorkdir(workdir, cwdOption ?? ".");
  if (!(await isDirectory(cwd))) {
    throw new BridgeError(`${fn}: cwd is not a directory: ${cwdOption ?? workdir}`);
  }
  const confined = sandbox === undefined ? null : await sandbox.confine(command);
  if (confined !== null && "refused" in confined) {
    throw new BridgeError(`${fn}: the command was not run: ${confined.refused}`);
  }
  try {
    const result = await runInProcessGroup({
      command: confined?.command ?? command,
      cwd,
      signal: invocation.signal,
      ...(quiet ? {} : { onStdout: invocation.output, onStderr: invocation.output }),
      ...(stdin === undefined ? {} : { stdin }),
      ...(env === undefined && confined === null ? {} : { env: { ...env, ...confined?.env } }),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });
    const note = sandbox === undefined || result.code === 0 || result.code === -1
      ? null
      : sandbox.explain(`${result.stdout}\n${result.stderr}`);
    // The sandbox's line ends stderr, so the model reads it through whatever the tool returns.
    const separator = result.stderr === "" || result.stderr.endsWith("\n") ? "" : "\n";
    const stderr = note === null ? result.stderr : `${result.stderr}${separator}${note}\n`;
    return { code: result.code, stdout: result.stdout, stderr };
  } catch (error) {
    const detail = errorMessage(error);
    throw new BridgeError(`${fn}: ${detail}`, "Error", { cause: error });
  } finally {
    await confined?.release();
  }
}

/** The `ctx.system` functions of one run. */
export function systemFunctions(context: ExtensionRunContext): Record<string, BridgeFunction> {
  const { workdir, sandbox } = context;
  return {
    "system.exec": (args, invocation) => exec(args, workdir, invocation, sandbox),
    "system.which": (args) =>
      findExecutable(readArguments("ctx.system.which", args).string(0, "name"), {
        path: Deno.env.get("PATH") ?? "",
        cwd: workdir,
      }),
  };
}
