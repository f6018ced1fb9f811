/**
 * Inline Markdown tokens (from `marked`'s lexer) → styled terminal text:
 * bold, italic, strike, inline code, links (label, then the URL when it
 * differs), images as their alt text, hard breaks as newlines.
 *
 * @module
 */

import type { Token, Tokens } from "marked";
import type { Theme } from "./style.ts";
import { terminalSafe } from "../terminal_text.ts";

/** Renders inline tokens as one string (may contain `\n` from hard breaks). */
export function renderInline(tokens: readonly Token[] | undefined, theme: Theme): string {
  if (tokens === undefined) return "";
  return tokens.map((token) => inlineToken(token, theme)).join("");
}

function inlineToken(token: Token, theme: Theme): string {
  switch (token.type) {
    case "strong":
      return theme.bold(renderInline((token as Tokens.Strong).tokens, theme));
    case "em":
      return theme.italic(renderInline((token as Tokens.Em).tokens, theme));
    case "del":
      return theme.strike(renderInline((token as Tokens.Del).tokens, theme));
    case "codespan":
      return theme.cyan(terminalSafe(decodeEntities((token as Tokens.Codespan).text)));
    case "br":
      return "\n";
    case "link": {
      const link = token as Tokens.Link;
      const label = renderInline(link.tokens, theme);
      const plain = link.text;
      const href = terminalSafe(link.href);
      const shown = theme.underline(theme.blue(label));
      return plain === link.href || plain === link.href.replace(/^mailto:/, "")
        ? shown
        : `${shown} ${theme.dim(`(${href})`)}`;
    }
    case "image": {
      const image = token as Tokens.Image;
      return theme.dim(`[image: ${terminalSafe(image.text || image.href)}]`);
    }
    case "text": {
      const text = token as Tokens.Text;
      if (text.tokens !== undefined && text.tokens.length > 0) {
        return renderInline(text.tokens, theme);
      }
      return terminalSafe(decodeEntities(text.text));
    }
    case "escape":
      return terminalSafe((token as Tokens.Escape).text);
    case "html":
      return theme.dim(terminalSafe((token as Tokens.HTML).text));
    default:
      return "raw" in token && typeof token.raw === "string" ? terminalSafe(token.raw) : "";
  }
}

const ENTITIES: Readonly<Record<string, string>> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'",
  "&#x27;": "'",
};

/** Decodes the few entities `marked` produces in code spans and text. */
export function decodeEntities(text: string): string {
  return text.replace(/&(?:amp|lt|gt|quot|#39|#x27);/g, (entity) => ENTITIES[entity] ?? entity);
}
