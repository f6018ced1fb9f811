/**
 * Loads the QuickJS engine inside a guest worker: the release **sync** build
 * of `quickjs-emscripten` 0.32.0, compiled from the package's `.wasm`, which
 * a bytes import puts in the module graph (so `deno run` resolves it like any
 * module and `deno compile` embeds it).
 *
 * @module
 */

import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSWASMModule,
} from "quickjs-emscripten-core";
import * as releaseSync from "@jitl/quickjs-wasmfile-release-sync";
import wasmBytes from "@jitl/quickjs-wasmfile-release-sync/wasm" with { type: "bytes" };

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

const wasm = new WebAssembly.Module(wasmBytes);

/** The linear memory the QuickJS build declares at start (16 MiB): the least a cap can be. */
export const INITIAL_MEMORY_BYTES = 16 * 1024 * 1024;

const PAGE_BYTES = 64 * 1024;

/**
 * A linear memory that never grows past `maxBytes` (at least
 * {@link INITIAL_MEMORY_BYTES}); `onRefused` hears of every growth it refused.
 * The engine's allocator then fails like an exhausted heap: QuickJS throws
 * `InternalError: out of memory` instead of taking more.
 */
export function createBoundedMemory(maxBytes: number, onRefused: () => void): WebAssembly.Memory {
  const initial = INITIAL_MEMORY_BYTES / PAGE_BYTES;
  const memory = new WebAssembly.Memory({
    initial,
    maximum: Math.max(initial, Math.floor(maxBytes / PAGE_BYTES)),
  });
  const grow = memory.grow.bind(memory);
  // emscripten grows the heap through this method (its resize-heap import), and
  // treats a throw as "no more memory".
  Object.defineProperty(memory, "grow", {
    value(pages: number): number {
      try {
        return grow(pages);
      } catch (error) {
        onRefused();
        throw error;
      }
    },
  });
  return memory;
}

/** Instantiates one QuickJS WebAssembly module over `memory` (see {@link createBoundedMemory}). */
export function loadQuickJs(memory: WebAssembly.Memory): Promise<QuickJSWASMModule> {
  const customized = newVariant(syncVariant(), {
    emscriptenModule: {
      wasmMemory: memory,
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
