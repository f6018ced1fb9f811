/**
 * Words file-system failures for the guest, naming the function and the path
 * the extension gave (never the resolved host path).
 *
 * @module
 */

import { BridgeError } from "./arguments.ts";
import { errorMessage } from "../../base/unknown.ts";

/** A guest error for a failed file operation of `fn` on `path`. */
export function fileError(fn: string, path: string, error: unknown): BridgeError {
  if (error instanceof BridgeError) return error;
  const options = { cause: error };
  if (error instanceof Deno.errors.NotFound) {
    return new BridgeError(`${fn}: no such file: ${path}`, "Error", options);
  }
  if (error instanceof Deno.errors.IsADirectory) {
    return new BridgeError(`${fn}: is a directory: ${path}`, "Error", options);
  }
  if (error instanceof Deno.errors.NotADirectory) {
    return new BridgeError(`${fn}: not a directory: ${path}`, "Error", options);
  }
  if (error instanceof Deno.errors.PermissionDenied) {
    return new BridgeError(`${fn}: permission denied: ${path}`, "Error", options);
  }
  if (error instanceof Deno.errors.NotCapable) {
    return new BridgeError(`${fn}: not allowed by rienda's permissions: ${path}`, "Error", options);
  }
  const detail = errorMessage(error);
  return new BridgeError(`${fn}: ${path}: ${detail}`, "Error", options);
}
