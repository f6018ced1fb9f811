/**
 * `ctx.file`: read, write, exists and list, relative to the workspace
 * (absolute paths allowed). Reads replace invalid UTF-8; writes create the
 * parent directories. Each path passes the extension's grant first
 * (`access.ts`); read, exists and list need `file.read`, write `file.write`.
 * Under a grant, a write refuses a file with several names (hard links).
 *
 * @module
 */

import { dirname } from "node:path";
import type { ExtensionRunContext } from "../run_context.ts";
import { BridgeError, readArguments } from "./arguments.ts";
import type { BridgeFunction } from "./bridge_function.ts";
import type { Grant } from "../capabilities.ts";
import { grantedPath, realPathOf, verifyOpened } from "./access.ts";
import { fileError } from "./file_errors.ts";
import { listFiles } from "./list_files.ts";
import { resolveInWorkdir } from "./paths.ts";
import { readAtMost } from "../../host/read_at_most.ts";

/** The largest file `ctx.file.read` returns, so one read cannot exhaust the guest's memory. */
export const MAX_READ_BYTES = 32 * 1024 * 1024;

const decoder = new TextDecoder("utf-8", { fatal: false });

/** The path to work on: `path` resolved in the workspace and checked against the grant. */
function checked(grant: Grant, fn: string, mode: "read" | "write", path: string, workdir: string) {
  return grantedPath(grant, { fn, mode, path, absolute: resolveInWorkdir(workdir, path), workdir });
}

async function read(args: readonly unknown[], workdir: string, grant: Grant) {
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
    const absolute = await checked(grant, fn, "read", path, workdir);
    const info = await Deno.stat(absolute);
    if (info.isDirectory) throw new Deno.errors.IsADirectory();
    // The cap counts what is read, not the size the file system reports (0 for a
    // device such as /dev/zero, stale for a growing file).
    const part = info.size > MAX_READ_BYTES ? null : await readOpened(grant, fn, path, absolute);
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

async function readOpened(grant: Grant, fn: string, path: string, absolute: string) {
  const file = await Deno.open(absolute, { read: true });
  try {
    await verifyOpened(grant, fn, path, absolute, file);
  } catch (error) {
    file.close();
    throw error;
  }
  return await readAtMost(file.readable, MAX_READ_BYTES);
}

async function write(args: readonly unknown[], workdir: string, grant: Grant) {
  const fn = "ctx.file.write";
  const reader = readArguments(fn, args);
  const path = reader.string(0, "path");
  const data = reader.string(1, "data");
  const append = reader.options(2).boolean("append", false);
  try {
    const absolute = await checked(grant, fn, "write", path, workdir);
    await Deno.mkdir(dirname(absolute), { recursive: true });
    if (grant.layers.length === 0) {
      await Deno.writeTextFile(absolute, data, { append });
      return;
    }
    // Opened without truncating, checked, then truncated: a link swapped in
    // meanwhile cannot make it truncate or write a file outside the grant.
    using file = await Deno.open(absolute, { write: true, create: true, append });
    await verifyOpened(grant, fn, path, absolute, file);
    await refuseHardLink(grant, fn, path, file);
    if (!append) await file.truncate(0);
    const bytes = new TextEncoder().encode(data);
    for (let done = 0; done < bytes.length;) done += await file.write(bytes.subarray(done));
  } catch (error) {
    throw fileError(fn, path, error);
  }
}

/**
 * Refuses a file with more than one name under a grant: writing it changes
 * every other name too, and nothing tells where those are, so one may lie
 * outside the grant (a hard link in a granted folder to `~/.bashrc`).
 */
async function refuseHardLink(grant: Grant, fn: string, path: string, file: Deno.FsFile) {
  const { nlink } = await file.stat();
  if (nlink === null || nlink <= 1) return;
  throw new BridgeError(
    `${fn}: ${path} is a file with ${nlink} names (hard links), and another of them may lie ` +
      `outside this ${grant.kind}'s capabilities, so it is not written: write another path, ` +
      "or remove the other names first",
  );
}

async function exists(args: readonly unknown[], workdir: string, grant: Grant) {
  const fn = "ctx.file.exists";
  const path = readArguments(fn, args).string(0, "path");
  try {
    await Deno.stat(await checked(grant, fn, "read", path, workdir));
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return false;
    }
    throw fileError(fn, path, error);
  }
}

async function list(
  args: readonly unknown[],
  workdir: string,
  { signal, grant }: { signal: AbortSignal; grant: Grant },
) {
  const fn = "ctx.file.list";
  const reader = readArguments(fn, args);
  const path = args[0] === undefined ? "." : reader.string(0, "path");
  const options = reader.options(1);
  const recursive = options.boolean("recursive", true);
  const respectIgnoreFiles = options.boolean("respectIgnoreFiles", true);
  try {
    const root = await checked(grant, fn, "read", path, workdir);
    const info = await Deno.stat(root);
    if (!info.isDirectory) throw new Deno.errors.NotADirectory();
    // A checked root is a real path: entries are named relative to the real workspace.
    const base = grant.layers.length === 0 ? workdir : await realPathOf(workdir);
    return await listFiles({ workdir: base, root, recursive, respectIgnoreFiles, signal });
  } catch (error) {
    throw fileError(fn, path, error);
  }
}

/** The `ctx.file` functions of one run. */
export function fileFunctions(context: ExtensionRunContext): Record<string, BridgeFunction> {
  const { workdir } = context;
  return {
    "file.read": (args, { grant }) => read(args, workdir, grant),
    "file.write": (args, { grant }) => write(args, workdir, grant),
    "file.exists": (args, { grant }) => exists(args, workdir, grant),
    "file.list": (args, invocation) => list(args, workdir, invocation),
  };
}
