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

/** The largest file `ctx.file.read` returns, so one read cannot exhaust the guest's memory. */
export const MAX_READ_BYTES = 32 * 1024 * 1024;

/** How much one read of the file asks for. */
const READ_CHUNK_BYTES = 1024 * 1024;

const decoder = new TextDecoder("utf-8", { fatal: false });

/**
 * The bytes of `path`, or null once more than `maxBytes` were read. The cap
 * counts what is read, not the size the file system reports (0 for devices
 * such as `/dev/zero`, stale for a growing file).
 */
async function readAtMost(
  path: string,
  maxBytes: number,
  signal: AbortSignal,
): Promise<Uint8Array | null> {
  using file = await Deno.open(path, { read: true });
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    signal.throwIfAborted();
    const chunk = new Uint8Array(Math.min(READ_CHUNK_BYTES, maxBytes + 1 - total));
    const count = await file.read(chunk);
    if (count === null) break;
    chunks.push(chunk.subarray(0, count));
    total += count;
    if (total > maxBytes) return null;
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

async function read(args: readonly unknown[], workdir: string, signal: AbortSignal) {
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
    const bytes = info.size > MAX_READ_BYTES
      ? null
      : await readAtMost(absolute, MAX_READ_BYTES, signal);
    if (bytes === null) {
      throw new BridgeError(
        `${fn}: file too large: ${path} (more than ${MAX_READ_BYTES} bytes, the most it reads)`,
        "RangeError",
      );
    }
    return decoder.decode(bytes);
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
    "file.read": (args, { signal }) => read(args, workdir, signal),
    "file.write": (args) => write(args, workdir),
    "file.exists": (args) => exists(args, workdir),
    "file.list": (args, { signal }) => list(args, workdir, signal),
  };
}
