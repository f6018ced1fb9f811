/**
 * `highlight.js` core with the languages code fences use most. Loaded only
 * through `highlight.ts`, after the first frame.
 *
 * @module
 */

// @ts-types="./highlight_js.d.ts"
import hljs from "highlight.js/lib/core";
// @ts-types="./highlight_language.d.ts"
import bash from "highlight.js/lib/languages/bash";
// @ts-types="./highlight_language.d.ts"
import css from "highlight.js/lib/languages/css";
// @ts-types="./highlight_language.d.ts"
import diff from "highlight.js/lib/languages/diff";
// @ts-types="./highlight_language.d.ts"
import go from "highlight.js/lib/languages/go";
// @ts-types="./highlight_language.d.ts"
import javascript from "highlight.js/lib/languages/javascript";
// @ts-types="./highlight_language.d.ts"
import json from "highlight.js/lib/languages/json";
// @ts-types="./highlight_language.d.ts"
import python from "highlight.js/lib/languages/python";
// @ts-types="./highlight_language.d.ts"
import rust from "highlight.js/lib/languages/rust";
// @ts-types="./highlight_language.d.ts"
import sql from "highlight.js/lib/languages/sql";
// @ts-types="./highlight_language.d.ts"
import typescript from "highlight.js/lib/languages/typescript";
// @ts-types="./highlight_language.d.ts"
import xml from "highlight.js/lib/languages/xml";
// @ts-types="./highlight_language.d.ts"
import yaml from "highlight.js/lib/languages/yaml";

/** A highlight.js instance with the languages above registered. */
export function createHighlighter(): typeof hljs {
  const languages = {
    bash,
    css,
    diff,
    go,
    javascript,
    json,
    python,
    rust,
    sql,
    typescript,
    xml,
    yaml,
  };
  for (const [name, language] of Object.entries(languages)) hljs.registerLanguage(name, language);
  hljs.registerAliases(["sh", "shell", "zsh", "console"], { languageName: "bash" });
  hljs.registerAliases(["ts", "tsx"], { languageName: "typescript" });
  hljs.registerAliases(["js", "jsx", "mjs"], { languageName: "javascript" });
  hljs.registerAliases(["html"], { languageName: "xml" });
  hljs.registerAliases(["yml"], { languageName: "yaml" });
  hljs.registerAliases(["py"], { languageName: "python" });
  hljs.registerAliases(["rs"], { languageName: "rust" });
  return hljs;
}
