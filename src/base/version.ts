/**
 * The rienda version, and how this copy was built: from a checkout, as a
 * release binary, or as the npm package.
 *
 * @module
 */

/** The rienda version, as printed by `rienda --version` and sent as `User-Agent: rienda/<version>`. */
export const VERSION = "0.1.0";

/**
 * Replaced in a bundle by `scripts/bundle.ts` with `<kind> <commit> <date>` (e.g.
 * `binary 1be2f67 2026-12-01`); a checkout keeps this marker.
 */
const BUILD_STAMP: string = "@rienda-build-stamp@";

/** How this copy of rienda was built. */
export type BuildInfo =
  | { readonly kind: "source" }
  | { readonly kind: "binary" | "npm"; readonly commit: string; readonly date: string };

/** Parses a build stamp; anything but `binary|npm <commit> <date>` is a checkout. */
export function parseBuildStamp(stamp: string): BuildInfo {
  const [kind, commit, date, ...rest] = stamp.split(" ");
  if ((kind === "binary" || kind === "npm") && commit && date && rest.length === 0) {
    return { kind, commit, date };
  }
  return { kind: "source" };
}

/** This copy's build. */
export const BUILD: BuildInfo = parseBuildStamp(BUILD_STAMP);
