/**
 * `--output stream-json`: every run event as one JSON line on stdout, as it
 * happens. The line format is documented in `docs/stream-json.md`.
 *
 * @module
 */

import type { TextSink } from "./io.ts";
import type { Renderer } from "./text.ts";

/** Creates the stream-json renderer. */
export function createStreamJsonRenderer(stdout: TextSink): Renderer {
  return {
    sink(event) {
      stdout.write(`${JSON.stringify(event)}\n`);
    },
    finish() {},
  };
}
