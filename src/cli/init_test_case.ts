/**
 * `rienda init --test`: an example case of `rienda test` in `agent-tests/`
 * of the current folder, for the example agent `assistant`, with the
 * workspace it runs on (docs/testing.md).
 *
 * @module
 */

const CASE_YAML = `# An example case of rienda test (docs/testing.md). Record its cassette once
# against your provider, commit both files, and rienda test replays it offline
# (no key, no network), in CI too:
#   rienda test --record     # writes assistant.cassette.jsonl beside this file
#   rienda test              # replays it and checks what follows expect:
agent: assistant
prompt: "How many words are in notes.txt? Answer with the number only."
workspace: fixtures/words           # copied to a fresh temp folder for every run
# cassette: assistant.cassette.jsonl  (the default: this file's name)
# args: [--max-turns, "4"]          # more rienda run flags
expect:
  exit: 0
  stdout: { contains: "4" }         # or equals: / matches: (a regular expression)
  # tools: [word-count]             # the tools called, in order
  # refused: [shell]                # the calls a hook refused
  files:
    notes.txt: { equals: "one two three four\\n" }
`;

/** The files `init --test` writes, relative to the current folder. */
export const EXAMPLE_CASE_FILES: readonly (readonly [string, string])[] = [
  ["agent-tests/assistant.test.yaml", CASE_YAML],
  ["agent-tests/fixtures/words/notes.txt", "one two three four\n"],
];
