/**
 * Copies the QuickJS `.wasm` of the pinned npm package into the git-ignored
 * `vendor/` folder, where `src/extensions/worker/quickjs_wasm.js` imports it
 * as a module (no read permission, embedded by `deno compile`). Idempotent
 * and quiet: it writes only when the file is missing or different.
 *
 * @module
 */

// A static import makes Deno install the package before the script runs.
import "@jitl/quickjs-wasmfile-release-sync";

/** The vendored file, relative to the repository root. */
export const VENDORED_WASM = "vendor/quickjs-wasmfile-release-sync.wasm";

/** The `.wasm` shipped in the npm package, found through Deno's resolution of its entry point. */
export function packagedWasmUrl(): URL {
  const entry = import.meta.resolve("@jitl/quickjs-wasmfile-release-sync");
  return new URL("./emscripten-module.wasm", entry);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

async function readIfExists(path: URL): Promise<Uint8Array | null> {
  try {
    return await Deno.readFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/** Copies the `.wasm` into `vendor/` unless an identical copy is already there. */
export async function vendorWasm(root: URL): Promise<boolean> {
  const source = await Deno.readFile(packagedWasmUrl());
  const target = new URL(VENDORED_WASM, root);
  const current = await readIfExists(target);
  if (current !== null && sameBytes(current, source)) return false;
  await Deno.mkdir(new URL(".", target), { recursive: true });
  await Deno.writeFile(target, source);
  return true;
}

if (import.meta.main) {
  await vendorWasm(new URL("../", import.meta.url));
}
