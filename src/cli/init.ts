/**
 * `rienda init`: creates the rienda home with a commented `config.yaml`, the
 * default agent (`agents/default.md`, the built-in one's text, to see and
 * change), one example agent, one example tool and one example hook, and the
 * editor support (`rienda.d.ts`, `jsconfig.json`: docs/extending.md). Never
 * overwrites a file: existing ones are kept and reported.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { DEFAULT_AGENT_MD } from "../agents/default_agent.ts";
import { resolvePaths } from "../config/paths.ts";
import type { Io } from "../ui/io.ts";
import { EXIT } from "./exit.ts";
import { EXAMPLE_CASE_FILES } from "./init_test_case.ts";
import { JSCONFIG_JSON, RIENDA_DTS } from "../extensions/rienda_types.ts";

const CONFIG_YAML = `# rienda configuration. Everything here is optional: the built-in providers
# (openai, anthropic, openrouter, groq, deepseek, mistral, xai, together,
# fireworks, gemini, ollama, lmstudio) work with their usual key variable,
# e.g. OPENAI_API_KEY, or a key stored with \`rienda auth login <provider>\`.

# The model of agents that name none (no model:, or model: inherit), the
# default agent's among them. Without it, they take the first built-in
# provider with a key (anthropic, openai, then the others) with that
# provider's default model.
# default_model: openai/gpt-4o-mini

# The system prompt of every run ends with the workspace path, the platform,
# today's date and whether the workspace is a git repository; false drops it.
# environment_context: true

# The sandbox of the commands the model runs (the shell tool) and that
# extensions start (ctx.system.exec), through bubblewrap on Linux and
# sandbox-exec on macOS (docs/sandbox.md). workspace-write: the filesystem
# readable, only the workspace and a private TMPDIR writable (.git stays
# read-only), no network; read-only: only TMPDIR writable; off: no sandbox.
# A command that cannot be confined (bubblewrap missing, say) is not run:
# the result says how to fix it. --sandbox MODE and an agent's sandbox: win.
sandbox: workspace-write
# sandbox:
#   mode: workspace-write
#   network: true                       # let commands reach the network
#   writable: [~/.cache/deno]           # more writable folders

# providers:
#   local:                              # used as local/<model>
#     preset: ollama                    # a built-in preset, or:
#     # protocol: openai_chat_completions
#     # base_url: http://127.0.0.1:11434/v1
#     # api_key_env: MY_KEY
#     models:
#       qwen:                           # local/qwen
#         id: qwen2.5-coder:7b
#         context_window: 32768

# compaction:
#   enabled: true
#   reserve_tokens: 16384
#   keep_recent_tokens: 20000

# Settings for your tools and hooks, read as ctx.config.config.<name>.
# config:
#   word-count: { min_length: 3 }

# What extensions may reach through ctx (docs/extending.md, "Capabilities").
# An extension that declares no capabilities has full access unless
# require_capabilities is true; an entry per extension narrows its grant.
# extensions:
#   require_capabilities: true
#   word-count:
#     capabilities:
#       file: { read: ["."] }
`;

const AGENT_MD = `---
description: A careful assistant for the current workspace.
tools: [shell, word-count]
hooks: [guard]
---
You are a careful assistant working in the user's workspace. Look at the
files before you answer questions about them, and answer in a few sentences.
`;

const TOOL_JS = `// @ts-check
// A user tool: the folder name is the tool name. Reference: docs/extending.md
// of rienda; ../../rienda.d.ts (rienda types) gives an editor the types of ctx.
/** @type {Rienda.Tool} */
module.exports = {
  description: "Counts the words of a file in the workspace.",
  parameters: {
    type: "object",
    properties: {
      path: { type: "string", description: "Path relative to the workspace." },
    },
    required: ["path"],
    additionalProperties: false,
  },
  capabilities: { file: { read: ["."] } },
  execute: function (ctx, args) {
    const text = ctx.file.read(String(args.path));
    return String(text.trim().split(/\\s+/).filter(Boolean).length);
  },
};
`;

const HOOK_JS = `// @ts-check
// A user hook: asks before a shell command that deletes recursively.
// Reference: docs/extending.md of rienda; types in ../../rienda.d.ts.
/** @type {Rienda.Hook} */
module.exports = {
  capabilities: {},
  beforeToolExecute: function (ctx, call) {
    const command = String(call.arguments.command || "");
    if (call.name === "shell" && /\\brm\\s+-rf\\b/.test(command)) {
      if (!ctx.confirm({ title: "Dangerous command", body: command })) {
        return { allow: false, reason: "refused by the user" };
      }
    }
  },
};
`;

/** The files `init` creates, relative to the home. */
const INIT_FILES: readonly (readonly [string, string])[] = [
  ["config.yaml", CONFIG_YAML],
  ["agents/default.md", DEFAULT_AGENT_MD],
  ["agents/assistant.md", AGENT_MD],
  ["tools/word-count/index.js", TOOL_JS],
  ["hooks/guard/index.js", HOOK_JS],
  ["rienda.d.ts", RIENDA_DTS],
  ["jsconfig.json", JSCONFIG_JSON],
];

/** Creates the missing files of the home; reports each one as created or kept. */
export async function initCommand(
  io: Io,
  options: { readonly test?: boolean } = {},
): Promise<number> {
  const { home } = resolvePaths(io.env);
  await Deno.mkdir(home, { recursive: true, mode: 0o700 });
  await writeMissing(io, home, INIT_FILES);
  if (options.test === true) await writeMissing(io, io.cwd, EXAMPLE_CASE_FILES);
  io.stdout.write(
    `\nNext: set ANTHROPIC_API_KEY or OPENAI_API_KEY (or run rienda auth login PROVIDER), then\n` +
      `  rienda run "what does this project do?"\n` +
      `  rienda run -a assistant "how many words are in README.md?"\n` +
      (options.test === true ? `  rienda test --record   # then rienda test, offline\n` : ""),
  );
  return EXIT.ok;
}

/** Creates each file of `files` under `root` that does not exist; reports each as created or kept. */
async function writeMissing(
  io: Io,
  root: string,
  files: readonly (readonly [string, string])[],
): Promise<void> {
  for (const [relative, text] of files) {
    const path = join(root, relative);
    await Deno.mkdir(dirname(path), { recursive: true });
    try {
      await Deno.writeTextFile(path, text, { createNew: true });
      io.stdout.write(`created  ${path}\n`);
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
      io.stdout.write(`kept     ${path} (exists)\n`);
    }
  }
}
