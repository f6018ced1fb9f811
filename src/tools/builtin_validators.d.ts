/**
 * Types of the generated `builtin_validators.js` (see `generate_builtin_validators.ts`).
 *
 * @module
 */

import type { ValidateFunction } from "ajv";

/** Checks the arguments of the built-in `agent` tool. */
export declare const agent: ValidateFunction;
/** Checks the arguments of the built-in `edit` tool. */
export declare const edit: ValidateFunction;
/** Checks the arguments of the built-in `find` tool. */
export declare const find: ValidateFunction;
/** Checks the arguments of the built-in `grep` tool. */
export declare const grep: ValidateFunction;
/** Checks the arguments of the built-in `http` tool. */
export declare const http: ValidateFunction;
/** Checks the arguments of the built-in `ls` tool. */
export declare const ls: ValidateFunction;
/** Checks the arguments of the built-in `read` tool. */
export declare const read: ValidateFunction;
/** Checks the arguments of the built-in `shell` tool. */
export declare const shell: ValidateFunction;
/** Checks the arguments of the built-in `write` tool. */
export declare const write: ValidateFunction;
