/**
 * The `/` commands. Each says why when it cannot run now (most need an idle
 * chat). {@link COMMANDS} also feeds the `/` completion and `/help`.
 *
 * @module
 */

import { withoutControls } from "../terminal_text.ts";
import { setText } from "./editor.ts";
import type { ChatControls } from "./controls.ts";

/** A command: its name, a one-line description, and whether it may run during a turn. */
export interface CommandInfo {
  readonly name: string;
  readonly args?: string;
  readonly description: string;
  readonly whileRunning: boolean;
  readonly run: (controls: ChatControls, argument: string) => void | Promise<void>;
}

const KEYS_HELP = [
  "enter send (queues while a turn runs) · shift+enter, alt+enter or ctrl+j new line",
  "esc interrupt · ctrl+c interrupt / clear / twice to quit · ctrl+d quit",
  "↑/↓ history · ctrl+←/→ or alt+b/f words · ctrl+w, alt+d delete words · ctrl+u/k to start/end",
  "@ files · / commands · tab completes · ctrl+g edit in $EDITOR · ctrl+o show output whole",
];

const THINKING_LEVELS = ["off", "low", "medium", "high"];

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/** Every command, in the order `/help` lists them. */
export const COMMANDS: readonly CommandInfo[] = [
  {
    name: "help",
    description: "list the commands and keys",
    whileRunning: true,
    run(controls) {
      const lines = [
        "commands:",
        ...COMMANDS.map((command) =>
          `  /${command.name}${command.args ? ` ${command.args}` : ""} — ${command.description}`
        ),
        "keys:",
        ...KEYS_HELP.map((line) => `  ${line}`),
      ];
      controls.transcript.addNotice(lines.join("\n"), "info");
    },
  },
  {
    name: "new",
    args: "[AGENT]",
    description: "start a new session (with the current agent, or AGENT)",
    whileRunning: false,
    async run(controls, argument) {
      await controls.backend.newSession(argument === "" ? undefined : argument);
      controls.showSession([]);
      controls.transcript.addNotice(`new session · ${controls.backend.state().agent}`, "info");
    },
  },
  {
    name: "agent",
    args: "[ID]",
    description: "switch the agent for the next messages (picker without ID)",
    whileRunning: false,
    async run(controls, argument) {
      const use = async (id: string) => {
        await controls.backend.setAgent(id);
        controls.transcript.addNotice(`agent: ${id} (from the next message on)`, "info");
      };
      if (argument !== "") return await use(argument);
      controls.pick(
        "Select an agent",
        await controls.backend.agents(),
        (choice) => use(choice.value),
      );
    },
  },
  {
    name: "model",
    args: "[PROVIDER/MODEL]",
    description:
      "switch the model for the next messages (a picker of the ready models and aliases)",
    whileRunning: false,
    async run(controls, argument) {
      const use = (ref: string) => {
        controls.backend.setModel(ref);
        controls.transcript.addNotice(`model: ${ref} (from the next message on)`, "info");
      };
      if (argument !== "") return use(argument);
      const models = await controls.backend.models();
      if (models.length === 0) {
        return controls.say("no provider is ready: rienda models says what each one lacks", 6_000);
      }
      controls.pick("Select a model", models, (choice) => {
        // A built-in provider offers any model id: let the person type it.
        if (choice.value.endsWith("/*")) {
          setText(controls.editor, `/model ${choice.value.slice(0, -1)}`);
          controls.say("type the model id, then enter");
        } else use(choice.value);
      });
    },
  },
  {
    name: "thinking",
    args: "[LEVEL]",
    description: "set the reasoning level: off, low, medium, high, or one the model declares",
    whileRunning: false,
    run(controls, argument) {
      const use = (level: string) => {
        controls.backend.setThinking(level === "off" ? null : level);
        controls.transcript.addNotice(`thinking: ${level} (from the next message on)`, "info");
      };
      if (argument !== "") return use(argument);
      controls.pick(
        "Reasoning level",
        THINKING_LEVELS.map((level) => ({ value: level, label: level })),
        (choice) => use(choice.value),
      );
    },
  },
  {
    name: "mcp",
    description: "the MCP servers of config.yaml and their state for this agent",
    whileRunning: true,
    async run(controls) {
      controls.transcript.addNotice((await controls.backend.mcpStatus()).join("\n"), "info");
    },
  },
  {
    name: "sessions",
    description: "resume a stored session of this workspace",
    whileRunning: false,
    async run(controls) {
      const sessions = await controls.backend.sessions();
      if (sessions.length === 0) return controls.say("no stored session in this workspace yet");
      controls.pick("Resume a session", sessions, async (choice) => {
        const messages = await controls.backend.resume(choice.value);
        controls.showSession(messages);
        controls.transcript.addNotice(`resumed session ${choice.value}`, "info");
      });
    },
  },
  {
    name: "rewind",
    description:
      "go back to before an earlier prompt (files are not restored); the next message branches",
    whileRunning: false,
    async run(controls) {
      if (controls.backend.state().sessionId === null) return controls.say("nothing to rewind yet");
      const prompts = await controls.backend.prompts();
      if (prompts.length === 0) return controls.say("nothing to rewind yet");
      controls.pick("Rewind to before", prompts, async (choice) => {
        const text = await controls.backend.rewind(choice.value);
        setText(controls.editor, text);
        controls.transcript.addNotice(
          `rewound to before “${oneLine(text).slice(0, 60)}”: edit it and send to start a branch ` +
            "(the conversation only: files are not restored, what the agent changed stays)",
          "info",
        );
      });
    },
  },
  {
    name: "tree",
    description: "the session's branches, to switch between them",
    whileRunning: false,
    async run(controls) {
      if (controls.backend.state().sessionId === null) return controls.say("no branches yet");
      controls.pick("Switch to a branch", await controls.backend.branches(), async (choice) => {
        const messages = await controls.backend.switchBranch(choice.value);
        controls.showSession(messages);
        controls.transcript.addNotice(`switched to the branch “${oneLine(choice.label)}”`, "info");
      });
    },
  },
  {
    name: "title",
    args: "NAME",
    description: "name the session",
    whileRunning: false,
    async run(controls, argument) {
      if (argument === "") return controls.say("usage: /title NAME");
      if (controls.backend.state().sessionId === null) {
        return controls.say("send a first message, then name the session");
      }
      await controls.backend.setTitle(argument);
      controls.say(`session titled “${argument}”`);
    },
  },
  {
    name: "compact",
    description: "summarise the older conversation now to free context",
    whileRunning: false,
    run(controls) {
      controls.compact();
    },
  },
  {
    name: "copy",
    description: "copy the last answer to the clipboard (OSC 52)",
    whileRunning: true,
    run(controls) {
      // What the screen shows of it: no control reaches the clipboard (or the terminal).
      const answer = withoutControls(controls.transcript.lastAnswer());
      if (answer === "") return controls.say("nothing to copy yet");
      const base64 = new TextEncoder().encode(answer).toBase64();
      controls.write(`\x1b]52;c;${base64}\x07`);
      controls.say("copied the last answer to the clipboard");
    },
  },
  {
    name: "hooks",
    args: "add pre-tool|post-tool PROGRAM ARGS… | list | remove N",
    description: "hooks of this chat around each tool call (until /clear or /new)",
    whileRunning: false,
    async run(controls, argument) {
      const { lines, error } = await controls.backend.hooks(argument);
      controls.transcript.addNotice(lines.join("\n"), error ? "error" : "info");
    },
  },
  {
    name: "clear",
    description: "clear the screen and the scrollback, drop the chat's hooks (the session goes on)",
    whileRunning: false,
    async run(controls) {
      const dropped = await controls.backend.dropSessionHooks();
      controls.clearScreen();
      if (dropped > 0) {
        controls.say(`dropped ${dropped === 1 ? "1 hook" : `${dropped} hooks`} of this chat`);
      }
    },
  },
  {
    name: "quit",
    description: "leave (also ctrl+d)",
    whileRunning: true,
    run(controls) {
      controls.quit();
    },
  },
];

/** Runs a `/name argument` line. */
export async function runCommand(line: string, controls: ChatControls): Promise<void> {
  const match = /^\/(\S*)\s*([\s\S]*)$/.exec(line.trim());
  const name = match?.[1] ?? "";
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (command === undefined) {
    controls.say(`unknown command /${name}: /help lists them`);
    return controls.invalidate();
  }
  if (!command.whileRunning && controls.busy()) {
    controls.say(`/${name} cannot run during a turn: wait for it to end, or press esc`);
    return controls.invalidate();
  }
  try {
    await command.run(controls, (match?.[2] ?? "").trim());
  } catch (error) {
    controls.transcript.addNotice(
      `/${name}: ${error instanceof Error ? error.message : String(error)}`,
      "error",
    );
  }
  controls.invalidate();
}
