/**
 * Streaming Markdown → terminal rows, on `marked`'s lexer: headings,
 * paragraphs, lists (nested, ordered, tasks), code fences (highlighted once
 * the highlighter has loaded), block quotes, rules, tables and HTML as text.
 *
 * {@link splitFinished} tells which part of a growing answer will not change
 * any more: every top-level block before the last one. Those rows go to the
 * scrollback once; only the last block is re-rendered as text arrives.
 *
 * @module
 */

import { Lexer, type Token, type Tokens } from "marked";
import { highlightCode } from "./highlight.ts";
import { renderInline } from "./markdown_inline.ts";
import { terminalSafe } from "../terminal_text.ts";
import { renderTable } from "./markdown_table.ts";
import type { Theme } from "./style.ts";
import { wrapLine, wrapText } from "./width.ts";

/** Lexes Markdown into top-level block tokens. */
export function lexBlocks(markdown: string): Token[] {
  return Lexer.lex(markdown, { gfm: true });
}

/**
 * Splits a growing Markdown text at the start of its last block: the text
 * before it is final (more text can only extend the last block).
 */
export function splitFinished(markdown: string): { finished: string; rest: string } {
  const tokens = lexBlocks(markdown);
  let lastContent = -1;
  for (let index = tokens.length - 1; index >= 0; index--) {
    if (tokens[index]!.type !== "space") {
      lastContent = index;
      break;
    }
  }
  if (lastContent <= 0) return { finished: "", rest: markdown };
  let offset = 0;
  for (let index = 0; index < lastContent; index++) offset += tokens[index]!.raw.length;
  // Raw lengths add up to the input unless the lexer rewrote it (tabs, CRLF): then keep it live.
  if (markdown.slice(offset, offset + 1) !== tokens[lastContent]!.raw.slice(0, 1)) {
    return { finished: "", rest: markdown };
  }
  return { finished: markdown.slice(0, offset), rest: markdown.slice(offset) };
}

/** Renders Markdown to rows of at most `width` columns, a blank row between blocks. */
export function renderMarkdown(markdown: string, width: number, theme: Theme): string[] {
  return renderBlocks(lexBlocks(markdown), Math.max(10, width), theme);
}

function renderBlocks(tokens: readonly Token[], width: number, theme: Theme): string[] {
  const lines: string[] = [];
  for (const token of tokens) {
    const rows = renderBlock(token, width, theme);
    if (rows.length === 0) continue;
    if (lines.length > 0) lines.push("");
    for (const row of rows) lines.push(row);
  }
  return lines;
}

function renderBlock(token: Token, width: number, theme: Theme): string[] {
  switch (token.type) {
    case "space":
    case "def":
      return [];
    case "heading": {
      const heading = token as Tokens.Heading;
      const text = renderInline(heading.tokens, theme);
      const styled = heading.depth === 1
        ? theme.bold(theme.underline(theme.cyan(text)))
        : theme.bold(heading.depth === 2 ? theme.cyan(text) : text);
      return wrapText(styled, width);
    }
    case "paragraph":
      return wrapText(renderInline((token as Tokens.Paragraph).tokens, theme), width);
    case "text": {
      const text = token as Tokens.Text;
      return wrapText(
        text.tokens === undefined ? terminalSafe(text.text) : renderInline(text.tokens, theme),
        width,
      );
    }
    case "code":
      return renderCode(token as Tokens.Code, width, theme);
    case "blockquote": {
      const inner = renderBlocks((token as Tokens.Blockquote).tokens, width - 2, theme);
      return inner.map((line) => `${theme.dim("▌")} ${theme.italic(line)}`);
    }
    case "hr":
      return [theme.dim("─".repeat(Math.min(width, 60)))];
    case "list":
      return renderList(token as Tokens.List, width, theme);
    case "table":
      return renderTable(token as Tokens.Table, width, theme);
    case "html":
      return wrapText(theme.dim(terminalSafe((token as Tokens.HTML).text.trimEnd())), width);
    default:
      return "raw" in token && typeof token.raw === "string"
        ? wrapText(terminalSafe(token.raw.trimEnd()), width)
        : [];
  }
}

function renderCode(code: Tokens.Code, width: number, theme: Theme): string[] {
  const source = code.text.replace(/\n$/, "");
  const highlighted = theme.color ? highlightCode(source, code.lang ?? "") : null;
  const lines = (highlighted ?? terminalSafe(source)).split("\n");
  const bar = theme.dim("│");
  const label = code.lang ? [theme.dim(`${code.lang}`)] : [];
  return [
    ...label,
    ...lines.flatMap((line) =>
      wrapLine(highlighted === null ? line : line, width - 2).map((row) => `${bar} ${row}`)
    ),
  ];
}

function renderList(list: Tokens.List, width: number, theme: Theme): string[] {
  const start = typeof list.start === "number" ? list.start : 1;
  const lines: string[] = [];
  for (const [index, item] of list.items.entries()) {
    const bullet = list.ordered ? `${start + index}.` : "•";
    const task = item.task ? (item.checked ? "[x] " : "[ ] ") : "";
    const indent = " ".repeat(bullet.length + 1);
    const blocks = renderBlocks(item.tokens, width - indent.length, theme);
    // A tight item's blocks (its text, a nested list) follow each other without blank rows.
    const body = item.loose ? blocks : blocks.filter((line) => line !== "");
    if (item.loose && index > 0) lines.push("");
    for (const [row, line] of (body.length === 0 ? [""] : body).entries()) {
      lines.push(row === 0 ? `${theme.cyan(bullet)} ${task}${line}` : `${indent}${line}`);
    }
  }
  return lines.filter((line, index, all) => !(line === "" && all[index - 1] === ""));
}
