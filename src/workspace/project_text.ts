/**
 * Reading a text file of the project for the system prompt (`AGENTS.md`,
 * `CLAUDE.md`, `SKILL.md`) only when it is a regular file whose real path
 * stays inside the project root: a cloned repository's `AGENTS.md ->
 * ~/.ssh/id_rsa` would otherwise send the key to the provider on every run,
 * and a named pipe in its place would block the start (docs/security.md).
 * The caller may refuse more files by their real path ({@link RefuseFile}):
 * the app refuses rienda's own files, which a project holding the home (rienda
 * started in `~`) could otherwise link to.
 *
 * @module
 */

import { resolveInside } from "../host/project_root.ts";
import { readTextFileAtMost } from "../host/read_at_most.ts";

/** What {@link readProjectText} found. */
export type ProjectText =
  | { readonly kind: "absent" }
  /** Not read; `why` completes "`<path>` …, so it was left out". */
  | { readonly kind: "refused"; readonly why: string }
  | { readonly kind: "text"; readonly text: string; readonly complete: boolean };

/**
 * Why the file of real path `realPath` must not be read (completing
 * "`<path>` …, so it was left out"), or null when it may be.
 */
export type RefuseFile = (realPath: string) => Promise<string | null>;

/**
 * The text of `path` (at most `maxBytes`), when it is a regular file inside
 * the real folder `realRoot` that `refuse` does not refuse.
 *
 * @throws what reading throws, other than a missing file
 */
export async function readProjectText(
  path: string,
  realRoot: string,
  maxBytes: number,
  refuse?: RefuseFile,
): Promise<ProjectText> {
  const found = await resolveInside(path, realRoot);
  switch (found.kind) {
    case "absent":
      return found;
    case "outside":
      return {
        kind: "refused",
        why: `leads to ${found.realPath}, outside the project ${realRoot}`,
      };
    case "not_file":
      return { kind: "refused", why: "is not a regular file" };
    case "file": {
      const why = refuse === undefined ? null : await refuse(found.realPath);
      if (why !== null) return { kind: "refused", why };
      try {
        return { kind: "text", ...await readTextFileAtMost(found.realPath, maxBytes) };
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) return { kind: "absent" };
        throw error;
      }
    }
  }
}
