/** The compiled QuickJS WebAssembly module (release, sync build). */
declare const wasm: WebAssembly.Module;
export default wasm;
