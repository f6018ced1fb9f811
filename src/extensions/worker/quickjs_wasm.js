// @ts-self-types="./quickjs_wasm.d.ts"
// The vendored QuickJS engine (`deno task vendor`), compiled at import: no read permission needed.
import source wasm from "../../../vendor/quickjs-wasmfile-release-sync.wasm";
export default wasm;
