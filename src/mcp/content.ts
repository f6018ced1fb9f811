/**
 * An MCP tool result → the text the model reads (docs/mcp.md, "Results").
 *
 * - Text content is the result, parts joined by line breaks; `isError` is kept.
 * - Other content kinds are summarised until a provider path for them
 *   exists: `[image: image/png, 1024 bytes]`, `[audio: audio/wav, N bytes]`,
 *   `[resource link: name <uri>]`; an embedded text resource keeps its text
 *   under a `[resource: <uri>]` line.
 * - A result with structured content only reads as its JSON; an empty result
 *   as `(no output)`.
 *
 * @module
 */

import type { CallToolResult, ContentBlock } from "@modelcontextprotocol/sdk/types.js";
import type { ToolResult } from "../tools/tool.ts";

/** What an empty result reads as. */
export const NO_OUTPUT = "(no output)";

/** The decoded size of base64 `data`. */
function base64Bytes(data: string): number {
  const compact = data.replace(/[\s=]/g, "");
  return Math.floor(compact.length * 3 / 4);
}

/** One content block as text. */
function describeBlock(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
    case "audio":
      return `[${block.type}: ${block.mimeType}, ${base64Bytes(block.data)} bytes]`;
    case "resource_link":
      return `[resource link: ${block.name} <${block.uri}>]`;
    case "resource": {
      const { resource } = block;
      if ("text" in resource) return `[resource: <${resource.uri}>]\n${resource.text}`;
      const mime = resource.mimeType ?? "application/octet-stream";
      return `[resource: <${resource.uri}>, ${mime}, ${base64Bytes(resource.blob)} bytes]`;
    }
    default: {
      const unknown: number = block;
      return `[${String((unknown as { type?: unknown }).type)} content]`;
    }
  }
}

/** The result the model reads for an MCP `tools/call` result. */
export function toToolResult(result: CallToolResult): ToolResult {
  const isError = result.isError === true;
  if (result.content.length > 0) {
    return { text: result.content.map(describeBlock).join("\n"), isError };
  }
  if (result.structuredContent !== undefined) {
    return { text: JSON.stringify(result.structuredContent), isError };
  }
  return { text: NO_OUTPUT, isError };
}
