/**
 * The `/` commands. Each says why when it cannot run now (most need an idle
 * chat). {@link COMMANDS} also feeds the `/` completion and `/help`.
 *
 * @module
 */

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
  "↑/↓ history · ctrl+←/→ or alt+b/f words · ctrl+w, alt+d delete words · ctrl+u/k delete to start/end",
  "ctrl+o show tool output and thinking whole",
];

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
    name: "copy",
    description: "copy the last answer to the clipboard (OSC 52)",
    whileRunning: true,
    run(controls) {
      const answer = controls.transcript.lastAnswer();
      if (answer === "") return controls.say("nothing to copy yet");
      const base64 = btoa(String.fromCodePoint(...new TextEncoder().encode(answer)));
      controls.write(`\x1b]52;c;${base64}\x07`);
      controls.say("copied the last answer to the clipboard");
    },
  },
  {
    name: "clear",
    description: "clear the screen and the scrollback (the session goes on)",
    whileRunning: false,
    run(controls) {
      controls.clearScreen();
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
