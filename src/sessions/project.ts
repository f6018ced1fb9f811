/**
 * The folder of a workspace's sessions: `sessions/<project-id>/`, where the
 * project id is a readable slug of the absolute workspace path plus a short
 * hash of it, so two workspaces never share a folder (docs/formats.md).
 *
 * @module
 */

import { join } from "node:path";

/** Characters of the slug kept from the end of the path. */
const MAX_SLUG_CHARS = 48;

/** Hex characters of the path's SHA-256 appended to the slug. */
const HASH_CHARS = 8;

const NON_ALPHANUMERIC_REGEXP = /[^a-z0-9]+/g;
const EDGE_DASHES_REGEXP = /^-+|-+$/g;

/**
 * The project id of an absolute workspace path, e.g.
 * `/home/ana/code/Web App` → `home-ana-code-web-app-1a2b3c4d`.
 */
export async function projectId(workdir: string): Promise<string> {
  const path = normalizeWorkdir(workdir);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(path));
  const hex = Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0"));
  return `${slugOf(path)}-${hex.join("").slice(0, HASH_CHARS)}`;
}

/** The folder holding the sessions of `workdir` under `sessionsDir`. */
export async function projectDir(sessionsDir: string, workdir: string): Promise<string> {
  return join(sessionsDir, await projectId(workdir));
}

/** The readable part of a project id: lowercase, alphanumeric runs joined by dashes. */
export function slugOf(path: string): string {
  const slug = path.toLowerCase().replace(NON_ALPHANUMERIC_REGEXP, "-").replace(
    EDGE_DASHES_REGEXP,
    "",
  );
  const tail = slug.slice(-MAX_SLUG_CHARS).replace(EDGE_DASHES_REGEXP, "");
  return tail === "" ? "root" : tail;
}

/** Drops trailing separators so `/a/b/` and `/a/b` name one workspace. */
function normalizeWorkdir(workdir: string): string {
  const trimmed = workdir.replace(/[\\/]+$/, "");
  return trimmed === "" ? workdir.slice(0, 1) : trimmed;
}
