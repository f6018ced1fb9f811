/**
 * The declaration of `rienda tools [test]` and `rienda hooks [test]`: flags,
 * help and examples, kept beside `program.ts` so the command tree stays
 * readable. The actions live in `tools.ts` and `hooks.ts`, loaded on demand.
 *
 * @module
 */

import type { Command } from "commander";
import type { Io } from "../ui/io.ts";
import { UsageError } from "./exit.ts";
import type { HooksTestFlags } from "./hooks.ts";
import type { ToolsTestFlags } from "./tools.ts";
import { CONFIG_FLAG_HELP, stringFlag } from "./flags.ts";

const WORKDIR_HELP = "workspace directory of ctx (default: the current directory)";
const YES_HELP = "answer every ctx.confirm with yes (default: no)";
const AGENT_HELP = "run as this agent: its frontmatter, config, model and tools:/hooks: policies";
const EXPECT_HELP = "exit 1 with a diff unless the result is this JSON (inline, @FILE or -)";

type Choose = (action: () => Promise<number>) => void;

/** `rienda tools foo`: commander hands `foo` to the default `list` command. */
function rejectUnknown(parent: string, command: string | undefined): void {
  if (command === undefined) return;
  throw new UsageError(
    `unknown ${parent} command "${command}" (expected ${
      parent === "hooks" ? "list, test or import-claude" : "list or test"
    })`,
    parent,
  );
}

/** Adds `tools` and `hooks` with their `test` subcommands to `program`. */
export function addExtensionCommands(
  program: Command,
  io: Io,
  signal: AbortSignal,
  choose: Choose,
): void {
  addToolsCommand(program, io, signal, choose);
  addHooksCommand(program, io, signal, choose);
}

function addToolsCommand(program: Command, io: Io, signal: AbortSignal, choose: Choose): void {
  const tools = program.command("tools")
    .description("list built-in and user tools, or run one with tools test")
    .usage("[list | test NAME --args JSON|@FILE|- [--agent ID] [--expect JSON] [-C DIR] [-y]]")
    .addHelpText(
      "after",
      `
User tools live in $RIENDA_HOME/tools/<name>/index.js; a user tool named
like a built-in replaces it. Broken tools are reported on stderr.

Examples:
  rienda tools
  rienda tools test word-count --args '{"path": "README.md"}'
  rienda tools test shell --args '{"command": "ls"}' -C ~/code/app
`,
    );
  tools.command("list", { isDefault: true })
    .description("built-in and user tools with their descriptions; problems on stderr")
    .argument("[command]")
    .addHelpText("after", "\nExamples:\n  rienda tools\n  rienda tools list 2>/dev/null\n")
    .action((command: string | undefined) => {
      rejectUnknown("tools", command);
      choose(async () => (await import("./tools.ts")).toolsList(io, signal));
    });
  tools.command("test")
    .description("run one tool invocation outside any model call and print its result")
    .argument("<name>", "a built-in or user tool")
    .option(
      "--args <json>",
      "the arguments, a JSON object checked against the tool's schema (inline, @FILE or -)",
      "{}",
    )
    .option("--agent <id>", AGENT_HELP)
    .option("--expect <json>", EXPECT_HELP)
    .option("-C, --workdir <dir>", WORKDIR_HELP)
    .option("--config <path>", CONFIG_FLAG_HELP)
    .option("-y, --auto-approve", YES_HELP)
    .addHelpText(
      "after",
      `
The result text goes to stdout (exit 0; an error result exits 1); ctx.log and
command output stream to stderr. --expect takes the text as a JSON string, or
{"text", "isError"}; the exit status is then whether the result matched.

Examples:
  rienda tools test word-count --args '{"path": "README.md"}'
  rienda tools test word-count --args @tests/readme.json --expect '"42 words"'
  rienda tools test publish -y --agent release
  echo '{"url": "https://example.com"}' | rienda tools test http --args -
`,
    )
    .action((name: string, flags: Record<string, unknown>) => {
      const parsed: ToolsTestFlags = {
        agent: stringFlag(flags, "agent"),
        expect: stringFlag(flags, "expect"),
        args: stringFlag(flags, "args"),
        workdir: stringFlag(flags, "workdir"),
        config: stringFlag(flags, "config"),
        autoApprove: flags.autoApprove === true,
      };
      choose(async () => (await import("./tools.ts")).toolsTest(io, signal, name, parsed));
    });
}

function addHooksCommand(program: Command, io: Io, signal: AbortSignal, choose: Choose): void {
  const hooks = program.command("hooks")
    .description("list the hooks of a run and the installed ones, or run one with hooks test")
    .usage(
      "[list [-a ID] | test NAME|--entry N|--command JSON POINT --payload JSON|@FILE|- [--agent ID] [--expect JSON] [-C DIR] [-y]]",
    )
    .addHelpText(
      "after",
      `
A run calls the entries of config.yaml's hooks: and of its agent's: JavaScript
hooks of $RIENDA_HOME/hooks/<name>/index.js by name, and commands. Broken hooks
are reported on stderr.

Examples:
  rienda hooks
  rienda hooks -a careful
  rienda hooks test guard beforeToolExecute --payload '{"name": "shell", "arguments": {"command": "rm -rf /"}}'
  rienda hooks test audit afterRun --payload '{"reason": "interrupted"}'
`,
    );
  hooks.command("list", { isDefault: true })
    .description("the hooks a run of an agent runs, in order, then the installed hooks")
    .argument("[command]")
    .option("-a, --agent <id>", "list the hooks of this agent's runs (default: the default agent)")
    .option(
      "-C, --workdir <dir>",
      "workspace whose project agents count (default: the current directory)",
    )
    .option("--config <path>", CONFIG_FLAG_HELP)
    .addHelpText(
      "after",
      `
The first part numbers the entries of config.yaml's hooks: and of the agent's
in the order a run calls them (lower priority first; equal priorities keep
config.yaml's before the agent's, each in declaration order): the hook's name
or the whole command, its points, matcher, priority and policy, and where it
is declared.

Examples:
  rienda hooks
  rienda hooks -a careful
`,
    )
    .action((command: string | undefined, flags: Record<string, unknown>) => {
      rejectUnknown("hooks", command);
      const parsed = {
        agent: stringFlag(flags, "agent"),
        workdir: stringFlag(flags, "workdir"),
        config: stringFlag(flags, "config"),
      };
      choose(async () => (await import("./hooks_list.ts")).hooksList(io, signal, parsed));
    });
  hooks.command("import-claude")
    .description("print Claude Code's hooks as config.yaml hooks: entries; --write adds them")
    .argument(
      "[settings]",
      "a Claude Code settings file (default: ~/.claude/settings.json, then the project's .claude/settings.json)",
    )
    .option(
      "--write",
      "add the entries config.yaml does not have yet (its comments are kept); without a file, the user's only",
    )
    .option("--config <path>", CONFIG_FLAG_HELP)
    .addHelpText(
      "after",
      `
Each command hook becomes a claude: entry that runs the command as Claude
Code does (sh -c, CLAUDE_PROJECT_DIR set to the workspace, the same JSON on
stdin). Events, hook types and settings rienda cannot run are listed on
stderr as skipped.

config.yaml's hooks run in every repository, so without a file named
--write adds the hooks of ~/.claude/settings.json only: the project's are
printed apart, for a home agent you run in that project. A file named is
added, with a warning for each command using CLAUDE_PROJECT_DIR or a
relative path.

Examples:
  rienda hooks import-claude
  rienda hooks import-claude .claude/settings.json --write
`,
    )
    .action((settings: string | undefined, flags: Record<string, unknown>) => {
      choose(async () =>
        (await import("./hooks_import.ts")).hooksImportClaude(io, settings, {
          write: flags.write === true,
          config: stringFlag(flags, "config"),
        })
      );
    });
  hooks.command("test")
    .description("run one hook point on a payload and print what it returned, as JSON")
    .usage("NAME POINT | --entry N [POINT] | --command JSON [POINT]  [options]")
    .argument("[name]", "a user hook (JavaScript), by name")
    .argument(
      "[point]",
      "beforeRun, beforePrompt, afterRun, beforeModelRequest, afterModelResponse, beforeToolExecute or afterToolExecute",
    )
    .option("--entry <n>", "run entry N of rienda hooks [-a ID] (config.yaml's and the agent's)")
    .option(
      "--command <json>",
      "run this command hook: an argv list, or an entry as hooks: holds it (inline, @FILE or -)",
    )
    .option("--payload <json>", "the payload, a JSON object (see below; inline, @FILE or -)", "{}")
    .option("-a, --agent <id>", AGENT_HELP)
    .option("--expect <json>", EXPECT_HELP)
    .option("-C, --workdir <dir>", WORKDIR_HELP)
    .option("--config <path>", CONFIG_FLAG_HELP)
    .option("-y, --auto-approve", YES_HELP)
    .addHelpText(
      "after",
      `
How each point is called, and the --payload that gives its arguments (fields
left out get the values a run would give; * marks the required ones):
  beforeRun(ctx, run)                 {"sessionId", "agentId", "modelId"}
  beforePrompt(ctx, prompt)           {"text"*}
  afterRun(ctx, event)                {"reason": "end_turn" | "interrupted" | "error"}
  beforeModelRequest(ctx, request)    {"system", "model", "messages": [{"role", "text"}]}
  afterModelResponse(ctx, response)   {"text"*, "thinking", "toolCalls": [{"id", "name", "arguments"}]}
  beforeToolExecute(ctx, call)        {"id", "name"*, "arguments"}
  afterToolExecute(ctx, call, result) {"call": {"id", "name"*, "arguments"}, "result": {"text"*, "isError"}}

What each may return: beforePrompt {allow, reason, text, context};
beforeModelRequest {system}; afterModelResponse {text, thinking};
beforeToolExecute {allow, reason, arguments}; afterToolExecute {text,
isError}; nothing (or null) is "no opinion".

The hook runs as a run calls it, with its entry's settings (matcher,
fail_closed, timeout_ms): NAME with config.yaml's or the agent's entry for it;
--entry N is the Nth of rienda hooks (the --agent's run, else the default
agent's); --command takes ["node", "hooks/x.mjs", "{tool}"] or {"command": [...],
"fail_closed": true, ...} or {"claude": "PreToolUse", "command": "..."}. With
--entry or --command, POINT may be left out when the hook runs at one point.
A call its matcher leaves out prints null, as a run does not call it.

stdout is the validated return as JSON (null: no opinion); notices, ctx.log and
command output go to stderr. A fail-closed hook that gives no verdict prints
why and exits 1, as a run would refuse. --expect compares the return.

Examples:
  rienda hooks test guard beforeToolExecute --payload '{"name": "shell", "arguments": {"command": "rm -rf build"}}'
  rienda hooks test redact afterToolExecute --payload '{"call": {"name": "shell"}, "result": {"text": "key=abc"}}'
  rienda hooks test redact afterModelResponse --payload @card.json --expect '{"text": "card [redacted]"}'
  rienda hooks test audit afterRun --payload '{"reason": "end_turn"}' --agent release -C ~/code/app
  rienda hooks test --entry 2 --payload '{"name": "write", "arguments": {"path": "gen/x.ts"}}'
  rienda hooks test --command '["node", "hooks/policy.mjs", "{tool}"]' beforeToolExecute --payload @call.json
`,
    )
    .action(
      (name: string | undefined, point: string | undefined, flags: Record<string, unknown>) => {
        const parsed: HooksTestFlags = {
          entry: stringFlag(flags, "entry"),
          command: stringFlag(flags, "command"),
          agent: stringFlag(flags, "agent"),
          expect: stringFlag(flags, "expect"),
          payload: stringFlag(flags, "payload"),
          workdir: stringFlag(flags, "workdir"),
          config: stringFlag(flags, "config"),
          autoApprove: flags.autoApprove === true,
        };
        choose(async () =>
          (await import("./hooks.ts")).hooksTest(io, signal, [name, point], parsed)
        );
      },
    );
}
