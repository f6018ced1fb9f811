/**
 * Where rienda keeps its files: the rienda home and the config file
 * (docs/formats.md, "The rienda home"; docs/cli.md, "Environment").
 *
 * @module
 */

import { join, resolve } from "node:path";
import { ConfigError } from "./config_error.ts";

/** Absolute paths of the rienda home and everything in it. */
export interface RiendaPaths {
  /** `$RIENDA_HOME`, default `~/.rienda`. */
  readonly home: string;
  /** `--config`, else `$RIENDA_CONFIG`, else `<home>/config.yaml`. */
  readonly configFile: string;
  /** True when the config file was named by `--config` or `RIENDA_CONFIG` (it must then exist). */
  readonly configExplicit: boolean;
  readonly agentsDir: string;
  readonly toolsDir: string;
  readonly hooksDir: string;
  readonly sessionsDir: string;
  readonly credentialsFile: string;
  /** Which projects are trusted (`trust.ts`). */
  readonly trustFile: string;
  readonly compactionPromptFile: string;
  readonly cacheDir: string;
  readonly storeDir: string;
  /** What extension modules export, remembered per module text (`extensions/exports_cache.ts`). */
  readonly exportsCacheDir: string;
}

/** Inputs of {@link resolvePaths} besides the environment. */
export interface ResolvePathsOptions {
  /** The `--config` flag. */
  readonly config?: string | undefined;
  /**
   * The directory relative paths are resolved against.
   * @default {Deno.cwd()}
   */
  readonly cwd?: string | undefined;
  /**
   * The operating system, which picks the home variable (`USERPROFILE` on Windows).
   * @default {Deno.build.os}
   */
  readonly os?: typeof Deno.build.os | undefined;
}

/**
 * Resolves the rienda paths from the environment: `RIENDA_HOME`, else
 * `$HOME/.rienda` (`%USERPROFILE%\.rienda` on Windows); empty variables count
 * as unset.
 *
 * @throws {ConfigError} when no home directory can be found
 */
export function resolvePaths(
  env: (name: string) => string | undefined,
  options: ResolvePathsOptions = {},
): RiendaPaths {
  const { os = Deno.build.os } = options;
  const cwd = options.cwd ?? Deno.cwd();
  const read = (name: string) => {
    const value = env(name);
    return value === undefined || value === "" ? undefined : value;
  };
  const homeVariable = os === "windows" ? "USERPROFILE" : "HOME";
  const riendaHome = read("RIENDA_HOME");
  const userHome = read(homeVariable);
  if (riendaHome === undefined && userHome === undefined) {
    throw new ConfigError(
      `cannot find the rienda home: neither RIENDA_HOME nor ${homeVariable} is set (set RIENDA_HOME to a directory)`,
      { file: "", field: "RIENDA_HOME" },
    );
  }
  const home = riendaHome === undefined
    ? resolve(cwd, userHome ?? "", ".rienda")
    : resolve(cwd, riendaHome);
  const flagConfig = options.config === "" ? undefined : options.config;
  const explicitConfig = flagConfig ?? read("RIENDA_CONFIG");
  return {
    home,
    configFile: explicitConfig === undefined
      ? join(home, "config.yaml")
      : resolve(cwd, explicitConfig),
    configExplicit: explicitConfig !== undefined,
    agentsDir: join(home, "agents"),
    toolsDir: join(home, "tools"),
    hooksDir: join(home, "hooks"),
    sessionsDir: join(home, "sessions"),
    credentialsFile: join(home, "credentials.json"),
    trustFile: join(home, "trust.json"),
    compactionPromptFile: join(home, "COMPACTION.md"),
    cacheDir: join(home, "cache"),
    storeDir: join(home, "store"),
    exportsCacheDir: join(home, "exports-cache"),
  };
}
