/**
 * Syntax highlighting for code fences, loaded after the first frame:
 * `highlight.js` core with a few common languages is imported through a
 * computed specifier (so `deno run` does not walk it at start-up), then
 * every later code block is coloured. Until then, and for unknown languages,
 * code is shown plain.
 *
 * @module
 */

/** What `highlight_languages.ts` exports (a type-level `import()`, erased at run time). */
type HighlightLanguages = typeof import("./highlight_languages.ts");

type Highlighter = ReturnType<HighlightLanguages["createHighlighter"]>;

let highlighter: Highlighter | null = null;
let loading: Promise<void> | null = null;

/** Starts loading the highlighter in the background; resolves once it is ready. */
export function loadHighlighter(): Promise<void> {
  loading ??= (async () => {
    const url = new URL("./highlight_languages.ts", import.meta.url).href;
    const module: HighlightLanguages = await import(url);
    const created = module.createHighlighter();
    // The first highlight of a language compiles its grammar: do it now.
    created.highlight("const a = 1;", { language: "typescript", ignoreIllegals: true });
    highlighter = created;
  })().catch(() => {});
  return loading;
}

const COLORS: Readonly<Record<string, string>> = {
  keyword: "35",
  "built_in": "36",
  type: "36",
  literal: "33",
  number: "33",
  string: "32",
  regexp: "32",
  comment: "90",
  doctag: "90",
  meta: "90",
  title: "34",
  "title.function": "34",
  "title.class": "34",
  attr: "36",
  attribute: "36",
  variable: "31",
  params: "39",
  symbol: "33",
  addition: "32",
  deletion: "31",
  section: "34",
  tag: "34",
  name: "34",
};

/** Highlighted code (SGR colours), or null when the language is unknown or not loaded yet. */
export function highlightCode(code: string, language: string): string | null {
  const name = language.trim().split(/\s/)[0]?.toLowerCase() ?? "";
  if (highlighter === null || name === "" || !highlighter.getLanguage(name)) return null;
  try {
    const html = highlighter.highlight(code, { language: name, ignoreIllegals: true }).value;
    return htmlToSgr(html);
  } catch {
    return null;
  }
}

/** highlight.js HTML spans → SGR colours (nested spans restore the outer colour). */
function htmlToSgr(html: string): string {
  const stack: string[] = [];
  return html.replace(
    // deno-lint-ignore no-control-regex
    /<span class="([^"]*)">|<\/span>|&(amp|lt|gt|quot|#x27|#39);|[\x00-\x08\x0b-\x1f\x7f]/g,
    (
      match,
      classes: string | undefined,
      entity: string | undefined,
    ) => {
      if (classes !== undefined) {
        const kind = classes.split(" ")[0]!.replace(/^hljs-/, "").replace(/_$/, "");
        const color = COLORS[kind] ?? stack.at(-1) ?? "39";
        stack.push(color);
        return `\x1b[${color}m`;
      }
      if (entity !== undefined) {
        return { amp: "&", lt: "<", gt: ">", quot: '"', "#x27": "'", "#39": "'" }[entity] ?? "";
      }
      if (match === "</span>") {
        stack.pop();
        return `\x1b[${stack.at(-1) ?? "39"}m`;
      }
      return "�";
    },
  );
}
