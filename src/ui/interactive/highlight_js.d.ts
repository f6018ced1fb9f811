// The part of highlight.js's API the highlighter uses. Its own typings pull
// in the DOM library (`/// <reference lib="dom" />`), which breaks Deno's types.

/** A registered language definition. */
export type LanguageFn = (hljs: unknown) => unknown;

/** The highlight.js instance. */
declare const hljs: {
  registerLanguage(name: string, language: LanguageFn): void;
  registerAliases(aliases: string[], options: { languageName: string }): void;
  highlight(code: string, options: { language: string; ignoreIllegals: boolean }): {
    value: string;
  };
  getLanguage(name: string): unknown;
};
export default hljs;
