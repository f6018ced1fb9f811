/**
 * rienda's own files that the file tools touch only with approval
 * (docs/security.md, "What the file tools refuse"): the home's
 * `credentials.json`, the `config.yaml` in use, `sessions/` and `store/`. The
 * app names them ({@link GuardedPath}); the tools ask before they read, search,
 * edit or write one (`approval.ts`).
 *
 * A path is guarded when it is one of them or lies inside one, decided on what
 * it is rather than how it is spelled: its real path (a symbolic link leads to
 * its target), and the device and inode of it and of each of its folders (a
 * hard link, or another spelling on a case-insensitive file system, is the
 * same file).
 *
 * @module
 */

import { dirname, join, relative } from "node:path";
import { realPathOf, staysBelow } from "./tool_paths.ts";

/** One guarded file or folder, and how a question or refusal names it. */
export interface GuardedPath {
  /** Absolute path. */
  readonly path: string;
  /** What it is, e.g. `rienda's credentials file (API keys)`. */
  readonly what: string;
}

/** A file's identity: device and inode (null where the system has none, as on Windows). */
type Identity = string | null;

async function identityOf(path: string): Promise<Identity> {
  try {
    const info = await Deno.stat(path);
    return info.dev === null || info.ino === null ? null : `${info.dev}:${info.ino}`;
  } catch {
    return null;
  }
}

/** The guarded entry `path` is, or lies inside; null when it is none of them. */
export async function guardOf(
  guarded: readonly GuardedPath[],
  path: string,
): Promise<GuardedPath | null> {
  if (guarded.length === 0) return null;
  const target = await realPathOf(path);
  const reals = await Promise.all(guarded.map((entry) => realPathOf(entry.path)));
  const byPath = guarded.find((_, index) => staysBelow(relative(reals[index] ?? "", target)));
  if (byPath !== undefined) return byPath;
  const identities = await Promise.all(reals.map(identityOf));
  for (let current = target;; current = dirname(current)) {
    const identity = await identityOf(current);
    const index = identity === null ? -1 : identities.indexOf(identity);
    if (index !== -1) return guarded[index] ?? null;
    if (dirname(current) === current) return null;
  }
}

/**
 * The guarded entries a walk of the folder `root` would reach, as paths below
 * `root` (a walk does not follow links, so these are where it would meet them).
 */
export async function guardedBelow(
  guarded: readonly GuardedPath[],
  root: string,
): Promise<GuardedPath[]> {
  const realRoot = await realPathOf(root);
  const below: GuardedPath[] = [];
  for (const entry of guarded) {
    const rel = relative(realRoot, await realPathOf(entry.path));
    if (rel !== "" && staysBelow(rel)) below.push({ ...entry, path: join(root, rel) });
  }
  return below;
}
