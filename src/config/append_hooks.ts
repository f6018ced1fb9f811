/**
 * Appends entries to the `hooks:` list of a `config.yaml` text, keeping
 * everything else as written: comments, order, quoting
 * (`rienda hooks import-claude --write`).
 *
 * @module
 */

import { isMap, isSeq, parseDocument, YAMLSeq } from "yaml";

/** An entry as config.yaml writes it (`{ claude: PreToolUse, matcher: Bash, command: … }`). */
export type HookEntryFields = Readonly<Record<string, string | number>>;

/**
 * `text` with `entries` at the end of its top-level `hooks:` list (created
 * when absent), `comment` (one line) written above the first of them.
 *
 * @throws {SyntaxError} when `text` is not YAML, or its `hooks` is not a list
 * or its top level not a mapping (the message says which)
 */
export function appendHookEntries(
  text: string,
  entries: readonly HookEntryFields[],
  comment?: string,
): string {
  const doc = parseDocument(text);
  const [error] = doc.errors;
  if (error !== undefined) throw new SyntaxError(`not valid YAML: ${error.message.split("\n")[0]}`);
  if (doc.contents !== null && !isMap(doc.contents)) {
    throw new SyntaxError("the top level is not a mapping of settings");
  }
  let hooks = doc.get("hooks", true);
  if (hooks === undefined || hooks === null) {
    hooks = new YAMLSeq();
    doc.set("hooks", hooks);
  }
  if (!isSeq(hooks)) throw new SyntaxError('"hooks" is not a list');
  entries.forEach((entry, i) => {
    const node = doc.createNode({ ...entry });
    if (i === 0 && comment !== undefined) node.commentBefore = ` ${comment}`;
    hooks.add(node);
  });
  return doc.toString({ lineWidth: 0 });
}
