/**
 * `rienda upgrade [VERSION]`: a release binary downloads
 * `rienda-<target>` and `SHA256SUMS` of the release as install.sh does
 * (`RIENDA_DOWNLOAD_URL`, default the GitHub release downloads), checks the
 * SHA-256, checks that the new binary runs, then renames it over the running
 * one (one rename: the old binary or the new one, never half of each). A
 * checkout or the npm package says how that install is upgraded instead.
 *
 * @module
 */

import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { readAtMost } from "../host/read_at_most.ts";
import { errorMessage } from "../base/unknown.ts";
import { BUILD, type BuildInfo } from "../base/version.ts";
import type { Io } from "../ui/io.ts";
import { EXIT, UsageError } from "./exit.ts";
import { versionLine } from "./version.ts";

/** The GitHub repository whose releases a binary upgrades from (install.sh names the same). */
export const RELEASE_REPOSITORY = "rienda/rienda";

/** The largest download taken for a binary. */
const MAX_BINARY_BYTES = 512 * 1024 * 1024;
const MAX_SUMS_BYTES = 64 * 1024;

/** The folder of release files for `version` (`latest` or `0.2.0`), as install.sh builds it. */
export function releaseUrl(version: string, downloadUrl: string | undefined): string {
  const bare = version.replace(/^v/, "");
  if (downloadUrl !== undefined && downloadUrl !== "") {
    const base = downloadUrl.replace(/\/+$/, "");
    return bare === "latest" ? `${base}/latest` : `${base}/v${bare}`;
  }
  const github = `https://github.com/${RELEASE_REPOSITORY}/releases`;
  return bare === "latest" ? `${github}/latest/download` : `${github}/download/v${bare}`;
}

/** The release file of this platform's binary. */
export function assetName(target: string = Deno.build.target): string {
  return `rienda-${target}${target.includes("windows") ? ".exe" : ""}`;
}

/** The checksum `SHA256SUMS` lists for `asset` (`sha256sum` format), or null. */
export function listedChecksum(sums: string, asset: string): string | null {
  for (const line of sums.split("\n")) {
    const match = line.trim().match(/^([0-9a-fA-F]{64}) [ *](.+)$/);
    if (match !== null && match[2] === asset) return match[1]!.toLowerCase();
  }
  return null;
}

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function download(url: string, maxBytes: number, signal: AbortSignal): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetch(url, { signal });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new Error(`cannot download ${url}: ${errorMessage(error)}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`cannot download ${url}: HTTP ${response.status}`);
  }
  const { bytes, complete } = await readAtMost(response.body, maxBytes);
  if (!complete) throw new Error(`cannot download ${url}: larger than ${maxBytes} bytes`);
  return bytes;
}

/** What replacing a binary did. */
export type UpgradeOutcome =
  | { readonly kind: "current" }
  | { readonly kind: "upgraded"; readonly version: string };

/** Where and how one binary is upgraded. */
export interface UpgradeRequest {
  /** The binary to replace. */
  readonly binary: string;
  /** The release folder ({@link releaseUrl}) and the file of this platform in it. */
  readonly release: string;
  readonly asset: string;
  /** Runs a binary with `--version`; its first line, or null when it does not run. */
  readonly probe: (path: string) => Promise<string | null>;
  readonly signal: AbortSignal;
}

/**
 * Downloads, checks and puts the release's binary in place of `binary`. A
 * checksum mismatch, a download or a binary that does not run throws and
 * leaves `binary` as it was.
 */
export async function upgradeBinary(request: UpgradeRequest): Promise<UpgradeOutcome> {
  const { binary, release, asset, signal } = request;
  const sumsUrl = `${release}/SHA256SUMS`;
  const sums = new TextDecoder().decode(await download(sumsUrl, MAX_SUMS_BYTES, signal));
  const expected = listedChecksum(sums, asset);
  if (expected === null) throw new Error(`${sumsUrl} lists no checksum for ${asset}`);
  if (await sha256(await Deno.readFile(binary)) === expected) return { kind: "current" };
  const bytes = new Uint8Array(await download(`${release}/${asset}`, MAX_BINARY_BYTES, signal));
  const actual = await sha256(bytes);
  if (actual !== expected) {
    throw new Error(
      `checksum mismatch for ${asset}: SHA256SUMS says ${expected}, the download is ${actual}; ` +
        `${binary} was not changed`,
    );
  }
  // Staged beside the binary, so putting it in place is one rename on one file system.
  const staged = join(dirname(binary), `.${basename(binary)}.upgrade-${Deno.pid}`);
  try {
    await Deno.writeFile(staged, bytes, { mode: 0o755 });
    await Deno.chmod(staged, 0o755).catch(() => {});
    const version = await request.probe(staged);
    if (version === null) {
      throw new Error(
        `the downloaded ${asset} does not run on this machine; ${binary} was not changed`,
      );
    }
    if (Deno.build.os === "windows") {
      // A running .exe cannot be replaced, but it can be renamed out of the way.
      await Deno.rename(binary, `${binary}.old`);
      await Deno.rename(staged, binary).catch(async (error) => {
        await Deno.rename(`${binary}.old`, binary);
        throw error;
      });
    } else {
      await Deno.rename(staged, binary);
    }
    return { kind: "upgraded", version };
  } finally {
    await Deno.remove(staged).catch(() => {});
  }
}

/** `binary --version` through `sh` (the one program the permission set may start). */
async function probeVersion(path: string): Promise<string | null> {
  const output = await new Deno.Command("sh", {
    args: ["-c", '"$0" --version', path],
    stdin: "null",
    stderr: "null",
  }).output().catch(() => null);
  if (output === null || !output.success) return null;
  return new TextDecoder().decode(output.stdout).split("\n")[0]?.trim() || null;
}

/** What `rienda upgrade` says for a build that is not a release binary. */
export function notBinaryMessage(build: BuildInfo): string | null {
  switch (build.kind) {
    case "binary":
      return null;
    case "npm":
      return "this rienda is the npm package rienda: upgrade it with npm install -g rienda@latest";
    case "source": {
      const checkout = fileURLToPath(new URL("../..", import.meta.url)).replace(/[\\/]$/, "");
      return `this rienda runs from the checkout ${checkout}: upgrade it with git -C ${checkout} pull`;
    }
  }
}

/** Runs `rienda upgrade`; resolves to the exit code. */
export async function upgradeCommand(
  io: Io,
  options: { readonly version: string | undefined },
  signal: AbortSignal,
): Promise<number> {
  const instead = notBinaryMessage(BUILD);
  if (instead !== null) {
    io.stderr.write(`rienda: ${instead}\n`);
    return EXIT.failure;
  }
  const version = options.version ?? "latest";
  if (!/^v?(latest|\d+\.\d+\.\d+([-+][0-9A-Za-z.-]+)?)$/.test(version)) {
    throw new UsageError(`"${version}" is not a version such as 0.2.0`, "upgrade");
  }
  const binary = Deno.execPath();
  const release = releaseUrl(version, io.env("RIENDA_DOWNLOAD_URL"));
  const asset = assetName();
  io.stderr.write(`rienda: checking ${release}/${asset}\n`);
  const outcome = await upgradeBinary({ binary, release, asset, probe: probeVersion, signal });
  switch (outcome.kind) {
    case "current":
      io.stdout.write(`${versionLine()} is already that release (${binary})\n`);
      return EXIT.ok;
    case "upgraded":
      io.stdout.write(`upgraded ${binary}: ${versionLine()} → ${outcome.version}\n`);
      return EXIT.ok;
  }
}
