// A highlight.js language module (see highlight_js.d.ts for why not its own typings).
import type { LanguageFn } from "./highlight_js.d.ts";
declare const language: LanguageFn;
export default language;
