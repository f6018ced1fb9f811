/**
 * Loads the QuickJS engine inside a guest worker: the release **sync** build
 * of `quickjs-emscripten` 0.32.0, instantiated from the vendored `.wasm`
 * (`import source`, so no read permission and embedded by `deno compile`).
 *
 * @module
 */

import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSWASMModule,
} from "quickjs-emscripten-core";
import * as releaseSync from "@jitl/quickjs-wasmfile-release-sync";
import wasm from "./quickjs_wasm.js";

type SyncVariant = Exclude<
  Awaited<Parameters<typeof newQuickJSWASMModuleFromVariant>[0]>,
  { readonly default: unknown }
>;

function isSyncVariant(value: unknown): value is SyncVariant {
  return typeof value === "object" && value !== null && "type" in value &&
    value.type === "sync" && "importFFI" in value && "importModuleLoader" in value;
}

/**
 * The variant object of the npm package. Its types resolve to the CommonJS
 * declaration and its runtime to the ES module, which disagree on `default`.
 */
function syncVariant(): SyncVariant {
  const namespace: unknown = releaseSync;
  if (isSyncVariant(namespace)) return namespace;
  const exported: unknown = typeof namespace === "object" && namespace !== null &&
      "default" in namespace
    ? namespace.default
    : undefined;
  if (isSyncVariant(exported)) return exported;
  throw new Error("@jitl/quickjs-wasmfile-release-sync: unexpected module shape");
}

/** Instantiates one QuickJS WebAssembly module. */
export function loadQuickJs(): Promise<QuickJSWASMModule> {
  const customized = newVariant(syncVariant(), {
    emscriptenModule: {
      instantiateWasm(
        imports: WebAssembly.Imports,
        done: (instance: WebAssembly.Instance) => void,
      ): Record<string, never> {
        WebAssembly.instantiate(wasm, imports).then(done);
        return {};
      },
    },
  });
  return newQuickJSWASMModuleFromVariant(customized);
}
