/**
 * The warning of a run whose workspace is the user's home directory
 * (docs/security.md, "Writes that run code later"): there the file tools may
 * change dotfiles, keys and every project at once.
 *
 * @module
 */

/**
 * The warning when `workdir` is the home directory (`HOME`, `USERPROFILE` on
 * Windows), compared on real paths; undefined otherwise.
 */
export async function homeWorkspaceWarning(
  workdir: string,
  env: (name: string) => string | undefined,
): Promise<string | undefined> {
  const home = env(Deno.build.os === "windows" ? "USERPROFILE" : "HOME");
  if (home === undefined || home === "") return undefined;
  const [real, realHome] = await Promise.all([
    Deno.realPath(workdir).catch(() => workdir),
    Deno.realPath(home).catch(() => home),
  ]);
  if (real !== realHome) return undefined;
  return `the workspace is your home directory ${real}: the file tools may change any file in it ` +
    "(writes into .git and into rienda's home still ask); start rienda in a project folder, or pass -C DIR";
}
