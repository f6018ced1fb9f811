/**
 * `rienda --version`: the version line, and the check main.ts uses to answer
 * it before loading the command tree (scripts probe it; it must be instant).
 *
 * @module
 */

import { BUILD, type BuildInfo, VERSION } from "../base/version.ts";

/**
 * The checkout this module runs from (meaningful only for a source build). Not
 * `fileURLToPath`: `node:url` would be one more module for `--version` to load.
 */
const CHECKOUT = decodeURIComponent(new URL("../..", import.meta.url).pathname)
  .replace(/^\/([A-Za-z]:)/, "$1");

/**
 * `rienda <version> (<commit>, <date>)` for a release binary or the npm package,
 * `rienda <version> (<commit>)` from a git checkout, `rienda <version>` otherwise.
 */
export function versionLine(build: BuildInfo = BUILD, checkout: string = CHECKOUT): string {
  if (build.kind !== "source") return `rienda ${VERSION} (${build.commit}, ${build.date})`;
  const commit = checkoutCommit(checkout);
  return commit === null ? `rienda ${VERSION}` : `rienda ${VERSION} (${commit})`;
}

/** The ways of asking for the version alone. */
export const VERSION_WORDS: readonly string[] = ["--version", "-v", "-V", "version"];

/** Whether `argv` only asks for the version (`--version`, `-v`, `-V` or `version`). */
export function isVersionRequest(argv: readonly string[]): boolean {
  return argv.length === 1 && VERSION_WORDS.includes(argv[0]!);
}

/**
 * `node:path` for the two joins git's files need: a Node module would cost `--version` a
 * third of its time. The OS resolves the `..` a relative `commondir` leaves in.
 */
function join(dir: string, name: string): string {
  return `${dir.replace(/[\\/]$/, "")}/${name}`;
}

function resolve(dir: string, path: string): string {
  return /^([A-Za-z]:)?[\\/]/.test(path) ? path : join(dir, path);
}

function readText(path: string): string | null {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return null;
  }
}

const SHA = /^[0-9a-f]{40}$/;

/**
 * The short commit of `checkout`'s HEAD, read from git's own files (HEAD, the
 * ref it names, loose or packed; a worktree's `.git` file and `commondir`), so
 * `--version` spawns no process; null when that is not a git checkout.
 */
export function checkoutCommit(checkout: string): string | null {
  const dotGit = join(checkout, ".git");
  const pointer = readText(dotGit)?.match(/^gitdir: (.+)$/m)?.[1];
  const gitDir = pointer === undefined ? dotGit : resolve(checkout, pointer.trim());
  const head = readText(join(gitDir, "HEAD"))?.trim();
  if (head === undefined) return null;
  if (SHA.test(head)) return head.slice(0, 7);
  const ref = head.match(/^ref: (refs\/[^\s]+)$/)?.[1];
  if (ref === undefined || ref.split("/").includes("..")) return null;
  const common = readText(join(gitDir, "commondir"))?.trim();
  const commonDir = common === undefined ? gitDir : resolve(gitDir, common);
  for (const dir of [gitDir, commonDir]) {
    const loose = readText(join(dir, ref))?.trim();
    if (loose !== undefined && SHA.test(loose)) return loose.slice(0, 7);
  }
  for (const line of (readText(join(commonDir, "packed-refs")) ?? "").split("\n")) {
    const [sha, name] = line.split(" ");
    if (name === ref && sha !== undefined && SHA.test(sha)) return sha.slice(0, 7);
  }
  return null;
}
