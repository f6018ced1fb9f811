/**
 * An ACP prompt (content blocks) → the text of the user's turn. Text is
 * taken as it is; an embedded resource (a file the editor attached, with its
 * text) becomes a `<resource uri="…">` block; a resource link names its URI.
 * Images, audio and binary resources are not advertised and are refused.
 *
 * @module
 */

import type { ContentBlock } from "@agentclientprotocol/sdk";

/** A prompt block rienda cannot pass to the model. */
export class PromptContentError extends Error {
  override name = "PromptContentError";
}

/**
 * The user text of `blocks`, joined by blank lines.
 *
 * @throws {PromptContentError} for an image, audio or binary resource block
 * @example
 * ```ts
 * import { promptText } from "./prompt_text.ts";
 * promptText([{ type: "text", text: "explain" }, {
 *   type: "resource",
 *   resource: { uri: "file:///w/a.ts", text: "let a = 1;" },
 * }]);
 * // 'explain\n\n<resource uri="file:///w/a.ts">\nlet a = 1;\n</resource>'
 * ```
 */
export function promptText(blocks: readonly ContentBlock[]): string {
  const parts: string[] = [];
  for (const block of blocks) parts.push(blockText(block));
  return parts.filter((part) => part !== "").join("\n\n");
}

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "resource_link":
      return `<resource_link uri="${attribute(block.uri)}" name="${attribute(block.name)}" />`;
    case "resource": {
      const { resource } = block;
      if (!("text" in resource)) {
        throw new PromptContentError(
          `prompt: the resource ${resource.uri} is binary: rienda takes text resources only`,
        );
      }
      return `<resource uri="${attribute(resource.uri)}">\n${resource.text}\n</resource>`;
    }
    case "image":
    case "audio":
      throw new PromptContentError(
        `prompt: ${block.type} content is not supported: rienda takes text and text resources`,
      );
  }
}

/** `text` for a double-quoted attribute. */
function attribute(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll('"', "&quot;");
}
