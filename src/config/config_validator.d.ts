/**
 * Types of the generated `config_validator.js` (see `generate_config_validator.ts`).
 *
 * @module
 */

import type { ErrorObject } from "ajv";
import type { RawConfig } from "./config_schema.ts";

/** Checks a parsed document against `CONFIG_SCHEMA`; on failure `errors` holds every problem. */
export declare const validate: {
  (data: unknown): data is RawConfig;
  errors?: ErrorObject[] | null;
};
