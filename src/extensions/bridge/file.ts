/**
 * `ctx.file`: read, write, exists and list, relative to the workspace
 * (absolute paths allowed). Reads replace invalid UTF-8; writes create the
 * parent directories.
 *
 * @module
 */

import { dirname } from "node:path";
import type { ExtensionRunContext } from "../run_context.ts";
import { BridgeError, readArguments } from "./arguments.ts";
import type { BridgeFunction } from "./bridge_function.ts";
import { fileError } from "./file_errors.ts";
import { listFiles } from "./list_files.ts";
import { resolveInWorkdir } from "./paths.ts";
import { readAtMost } from "../../read_at_most.ts";

/** The largest file `ctx.file.read` returns, so one read cannot exhaust the guest's memory. */
export const MAX_READ_BYTES = 32 * 1024 * 1024;

const decoder = new TextDecoder("utf-8", { fatal: false });

async function read(args: readonly unknown[], workdir: string) {
  const fn = "ctx.file.read";
  const reader = readArguments(fn, args);
  const path = reader.string(0, "path");
  const encoding = reader.options(1).string("encoding");
  if (
    encoding !== undefined && encoding.toLowerCase() !== "utf8" &&
    encoding.toLowerCase() !== "utf-8"
  ) {
    throw new BridgeError(`${fn}: encoding must be "utf8" (found "${encoding}")`, "TypeError");
  }
  try {
    const absolute = resolveInWorkdir(workdir, path);
    const info = await Deno.stat(absolute);
    if (info.isDirectory) throw new Deno.errors.IsADirectory();
    // The cap counts what is read, not the size the file system reports (0 for a
    // device such as /dev/zero, stale for a growing file).
    const part = info.size > MAX_READ_BYTES
      ? null
      : await readAtMost((await Deno.open(absolute, { read: true })).readable, MAX_READ_BYTES);
    if (part === null || !part.complete) {
      throw new BridgeError(
        `${fn}: file too large: ${path} (more than ${MAX_READ_BYTES} bytes, the most it reads)`,
        "RangeError",
      );
    }
    return decoder.decode(part.bytes);
  } catch (error) {
    throw fileError(fn, path, error);
  }
}

async function write(args: readonly unknown[], workdir: string) {
  const fn = "ctx.file.write";
  const reader = readArguments(fn, args);
  const path = reader.string(0, "path");
  const data = reader.string(1, "data");
  const append = reader.options(2).boolean("append", false);
  try {
    const absolute = resolveInWorkdir(workdir, path);
    await Deno.mkdir(dirname(absolute), { recursive: true });
    await Deno.writeTextFile(absolute, data, { append });
  } catch (error) {
    throw fileError(fn, path, error);
  }
}

async function exists(args: readonly unknown[], workdir: string) {
  const fn = "ctx.file.exists";
  const path = readArguments(fn, args).string(0, "path");
  try {
    await Deno.stat(resolveInWorkdir(workdir, path));
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return false;
    }
    throw fileError(fn, path, error);
  }
}

async function list(args: readonly unknown[], workdir: string, signal: AbortSignal) {
  const fn = "ctx.file.list";
  const reader = readArguments(fn, args);
  const path = args[0] === undefined ? "." : reader.string(0, "path");
  const options = reader.options(1);
  const recursive = options.boolean("recursive", true);
  const respectIgnoreFiles = options.boolean("respectIgnoreFiles", true);
  try {
    const root = resolveInWorkdir(workdir, path);
    const info = await Deno.stat(root);
    if (!info.isDirectory) throw new Deno.errors.NotADirectory();
    return await listFiles({ workdir, root, recursive, respectIgnoreFiles, signal });
  } catch (error) {
    throw fileError(fn, path, error);
  }
}

/** The `ctx.file` functions of one run. */
export function fileFunctions(context: ExtensionRunContext): Record<string, BridgeFunction> {
  const { workdir } = context;
  return {
    "file.read": (args) => read(args, workdir),
    "file.write": (args) => write(args, workdir),
    "file.exists": (args) => exists(args, workdir),
    "file.list": (args, { signal }) => list(args, workdir, signal),
  };
}
