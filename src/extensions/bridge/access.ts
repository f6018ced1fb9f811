/**
 * Enforces an extension's grant (`../capabilities.ts`) in the bridge: every
 * `ctx.file`, `ctx.http`, `ctx.system.exec` and `ctx.env` call passes here
 * first. A request outside the grant is a catchable `Error` naming the
 * function, what was asked, the grant and how to widen it:
 * `ctx.http.fetch: host evil.example is not in this tool's capabilities (http: api.github.com); …`.
 *
 * - Full access (no layer) checks nothing and costs nothing.
 * - Paths are compared as the kernel resolves them ({@link realPathOf}):
 *   every symbolic link is followed, dangling ones too, and `..` applies
 *   after a link, so neither a link nor `..` leaves a grant. The bridge then
 *   works on the resolved path, and re-checks the file it opened
 *   ({@link verifyOpened}), so a link swapped in between cannot redirect a
 *   read or a write (at worst, an empty file is created outside).
 *
 * @module
 */

import { dirname, isAbsolute, join } from "node:path";
import { type CapabilitySet, describeCategory } from "../../sandbox/capability_set.ts";
import type { Grant, GrantLayer } from "../capabilities.ts";
import { BridgeError } from "./arguments.ts";

/** A category of grants, as messages name it (`capabilities.<category>`). */
export type Category = "file.read" | "file.write" | "http" | "exec" | "env" | "shared";

/** The most symbolic links one path may go through (as Linux's `ELOOP`). */
const MAX_LINKS = 40;

/**
 * The path `absolute` names once every symbolic link in it is followed
 * (dangling ones too) and `.`/`..` are applied in order, as the kernel does;
 * a part that does not exist is kept as it is.
 *
 * @throws {Error} after {@link MAX_LINKS} links (a loop)
 */
export async function realPathOf(absolute: string): Promise<string> {
  try {
    return await Deno.realPath(absolute); // the kernel's answer, when the whole path exists
  } catch {
    return await walkRealPath(absolute); // a missing part or a dangling link: resolve by hand
  }
}

async function walkRealPath(absolute: string): Promise<string> {
  let pending = absolute.split("/");
  let current = "/";
  let links = 0;
  while (pending.length > 0) {
    const part = pending.shift() ?? "";
    if (part === "" || part === ".") continue;
    if (part === "..") {
      current = dirname(current);
      continue;
    }
    const next = current === "/" ? `/${part}` : `${current}/${part}`;
    let isLink = false;
    try {
      isLink = (await Deno.lstat(next)).isSymlink;
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory)) {
        throw error;
      }
    }
    if (!isLink) {
      current = next;
      continue;
    }
    if (++links > MAX_LINKS) throw new Error(`more than ${MAX_LINKS} symbolic links`);
    const target = await Deno.readLink(next);
    if (target.startsWith("/")) current = "/";
    pending = [...target.split("/"), ...pending];
  }
  return current;
}

/** A grant path as an absolute path: relative to the workspace, `~` for the home. */
function grantRoot(entry: string, workdir: string, home: string | undefined): string | null {
  if (entry === "~" || entry.startsWith("~/")) {
    return home === undefined ? null : join(home, entry.slice(1));
  }
  return isAbsolute(entry) ? entry : join(workdir, entry);
}

function within(path: string, root: string): boolean {
  return path === root || path.startsWith(root === "/" ? "/" : `${root}/`);
}

function whose(grant: Grant): string {
  return `this ${grant.kind}'s`;
}

/**
 * The denial of `subject` by `layer`; `suggestion` is what to add to the
 * grant (`"api.github.com"`), or `true` for `exec: true`.
 */
export function denial(
  grant: Grant,
  layer: GrantLayer,
  fn: string,
  subject: string,
  category: Category,
  suggestion: string | true,
): BridgeError {
  const field = `capabilities.${category}`;
  const fix = (where: string) =>
    suggestion === true ? `set ${where} to true` : `add ${suggestion} to ${where}`;
  const granted = `${category}: ${describeCategory(layer.set, category)}`;
  const configField = `extensions.${grant.name}.${field}`;
  switch (layer.source) {
    case "declared":
      return new BridgeError(
        `${fn}: ${subject} is not in ${whose(grant)} capabilities (${granted}); ` +
          `to grant it, ${fix(field)} in ${grant.path}`,
      );
    case "config":
      return new BridgeError(
        `${fn}: ${subject} is not in what config.yaml grants ${grant.kind} "${grant.name}" ` +
          `(${configField}: ${describeCategory(layer.set, category)}); ` +
          `to grant it, ${fix(configField)} in config.yaml`,
      );
    case "required":
      return new BridgeError(
        `${fn}: ${subject} is not allowed: ${grant.kind} "${grant.name}" declares no capabilities ` +
          `and config.yaml sets extensions.require_capabilities; to grant it, ${fix(field)} ` +
          `in ${grant.path}, or declare it in config.yaml (${configField})`,
      );
    default: {
      const never: never = layer.source;
      throw new Error(`unknown grant source ${String(never)}`);
    }
  }
}

/** What a path check needs besides the grant. */
export interface PathRequest {
  readonly fn: string;
  readonly mode: "read" | "write";
  /** The path as the extension gave it, named in errors. */
  readonly path: string;
  /** It as an absolute path (relative ones against the workspace). */
  readonly absolute: string;
  readonly workdir: string;
}

/**
 * The path to work on for `request`: `absolute` itself with full access,
 * else its real path, once every layer grants it.
 *
 * @throws {BridgeError} when a layer does not grant it
 */
export async function grantedPath(grant: Grant, request: PathRequest): Promise<string> {
  if (grant.layers.length === 0) return request.absolute;
  const home = Deno.env.get("HOME");
  const category: Category = request.mode === "read" ? "file.read" : "file.write";
  // The path and every grant root are resolved at once: each is a few system calls.
  const resolveRoots = (layer: GrantLayer) =>
    Promise.all(layer.set.file[request.mode].map((entry) => {
      const root = grantRoot(entry, request.workdir, home);
      return root === null ? null : realPathOf(root);
    }));
  const [real, ...rootsByLayer] = await Promise.all([
    realPathOf(request.absolute),
    ...grant.layers.map(resolveRoots),
  ]);
  for (const [index, layer] of grant.layers.entries()) {
    const roots = rootsByLayer[index] ?? [];
    const granted = roots.some((root) => root !== null && within(real, root));
    if (!granted) {
      const linked = real !== lexical(request.absolute);
      const subject = `path ${JSON.stringify(request.path)}` +
        (linked ? ` (${real} once its symbolic links are followed)` : "");
      const suggestion = JSON.stringify(linked ? real : request.path);
      throw denial(grant, layer, request.fn, subject, category, suggestion);
    }
  }
  return real;
}

/** `path` with `.` and `..` applied as text, for telling a link from a plain path in messages. */
function lexical(path: string): string {
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
}

/**
 * Checks, once `file` is open at `real`, that `real` still resolves to
 * itself and names the file opened (no link was swapped in meanwhile).
 *
 * @throws {BridgeError} when it does not
 */
export async function verifyOpened(
  grant: Grant,
  fn: string,
  path: string,
  real: string,
  file: Deno.FsFile,
): Promise<void> {
  if (grant.layers.length === 0) return;
  const [opened, resolved, named] = await Promise.all([
    file.stat(),
    realPathOf(real),
    Deno.stat(real).catch(() => null),
  ]);
  if (resolved !== real || named === null || named.ino !== opened.ino || named.dev !== opened.dev) {
    throw new BridgeError(`${fn}: ${JSON.stringify(path)} changed while it was opened; try again`);
  }
}

/** A host pattern's parts: the host (`*`, `*.x` or a name) and the port, if any. */
function splitPattern(pattern: string): { host: string; port: string | null } {
  const match = /^(.*?)(?::([0-9]{1,5}))?$/.exec(pattern);
  const host = (match?.[1] ?? pattern).toLowerCase();
  return { host, port: match?.[2] ?? null };
}

function defaultPort(url: URL): string {
  return url.port !== "" ? url.port : url.protocol === "https:" ? "443" : "80";
}

/** Whether `url`'s host (and port) matches one of the patterns of `set`. */
function hostGranted(set: CapabilitySet, url: URL): boolean {
  const hostname = url.hostname.toLowerCase().replace(/\.$/, "");
  return set.http.some((pattern) => {
    const { host, port } = splitPattern(pattern);
    if (port !== null && port !== defaultPort(url)) return false;
    if (host === "*") return true;
    if (host.startsWith("*.")) return hostname.endsWith(host.slice(1));
    return hostname === host.replace(/\.$/, "");
  });
}

/**
 * Checks that every layer grants the host of `url` (`redirect`: the target of
 * a redirect, named so in the error).
 *
 * @throws {BridgeError} when a layer does not
 */
export function checkHost(grant: Grant, fn: string, url: URL, redirect = false): void {
  for (const layer of grant.layers) {
    if (hostGranted(layer.set, url)) continue;
    const host = url.port === "" ? url.hostname : `${url.hostname}:${url.port}`;
    const subject = `${redirect ? "a redirect to " : ""}host ${host}`;
    throw denial(grant, layer, fn, subject, "http", JSON.stringify(url.hostname));
  }
}

/**
 * Checks that every layer grants variable `name` to `ctx.env.get`.
 *
 * @throws {BridgeError} when a layer does not
 */
export function checkEnv(grant: Grant, fn: string, name: string): void {
  for (const layer of grant.layers) {
    if (layer.set.env.includes(name)) continue;
    throw denial(grant, layer, fn, `variable ${name}`, "env", JSON.stringify(name));
  }
}

/**
 * Checks an exec request: a shell string needs `exec: true` in every layer;
 * a program needs `true` or its name in the list of every layer. Returns
 * whether a list limited it (then the program must be resolved on `PATH` by
 * the host, not by the command's environment).
 *
 * @throws {BridgeError} when a layer does not grant it
 */
export function checkExec(grant: Grant, fn: string, program: string | null): boolean {
  let listed = false;
  for (const layer of grant.layers) {
    const { exec } = layer.set;
    if (exec === true) continue;
    if (program !== null && exec !== false && exec.includes(program)) {
      listed = true;
      continue;
    }
    const subject = program === null
      ? "a shell command (the string form; the argv form runs a listed program)"
      : `program ${JSON.stringify(program)}`;
    throw denial(grant, layer, fn, subject, "exec", program === null || JSON.stringify(program));
  }
  return listed;
}

/**
 * Checks that every layer grants the shared area of `ctx.store` and
 * `ctx.cache` (`shared: true`).
 *
 * @throws {BridgeError} when a layer does not
 */
export function checkShared(grant: Grant, fn: string): void {
  for (const layer of grant.layers) {
    if (layer.set.shared) continue;
    throw denial(grant, layer, fn, "the shared area", "shared", true);
  }
}
