/**
 * The CLI in a pseudo-terminal, read through a terminal emulator: `script`
 * (util-linux) gives the process a pty, its output goes into an
 * `@xterm/headless` terminal in the test, and keys go to `script`'s stdin.
 *
 * - The inner shell notes its tty and pid in the temp dir, sets the size,
 *   runs the CLI, then saves `stty -a` (to check the terminal was restored).
 * - {@link PtySession.resize} resizes the emulator, then the pty
 *   (`stty -F`), which sends SIGWINCH to the CLI.
 * - Never sleeps a fixed time: {@link PtySession.waitFor} polls the screen.
 *
 * @module
 */

import xterm from "@xterm/headless";
import { childEnv, riendaDenoArgs, type RiendaOptions } from "./rienda.ts";

/** How a pty session starts. */
export interface PtyOptions extends RiendaOptions {
  readonly cols?: number;
  readonly rows?: number;
  /** Runs this command line instead of the CLI (`args` is then ignored). */
  readonly command?: readonly string[];
}

/** A CLI running in a pty. */
export interface PtySession extends AsyncDisposable {
  /** Sends keys (raw bytes: `\r` is Enter, `\x1b` Esc, `\x03` Ctrl+C). */
  type(keys: string): Promise<void>;
  /** The visible rows, trailing spaces trimmed. */
  screen(): Promise<string[]>;
  /** Every row, the scrollback included. */
  allRows(): Promise<string[]>;
  /** Polls the screen until `ready` holds; rejects with the screen after the timeout. */
  waitFor(ready: (screen: string) => boolean, what: string, timeoutMs?: number): Promise<string>;
  /** Resolves once no output has come for `quietMs` and the last frame is complete. */
  settle(quietMs?: number): Promise<void>;
  /** Resizes the emulator and the pty (the CLI gets SIGWINCH). */
  resize(cols: number, rows: number): Promise<void>;
  /** Sends a signal to the CLI (to `deno task`, which forwards it). */
  kill(signal: Deno.Signal): Promise<void>;
  /** Waits for the exit. */
  wait(): Promise<{ code: number; raw: string; sttyAfter: string }>;
  /** Every byte the CLI wrote so far. */
  raw(): string;
}

const encoder = new TextEncoder();

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Starts `rienda <args>` (or `options.command`) in a pty of `cols`x`rows` (default 80x24). */
export async function startPty(args: readonly string[], options: PtyOptions): Promise<PtySession> {
  const { cols = 80, rows = 24, timeoutMs = 60_000 } = options;
  const dir = await Deno.makeTempDir({ prefix: "rienda-pty-" });
  const env = await childEnv(options);
  env.TERM ??= "xterm-256color";
  const command = (options.command ?? [Deno.execPath(), ...riendaDenoArgs(args)]).map(quote)
    .join(" ");
  const inner = [
    `echo $$ > ${quote(`${dir}/pid`)}`,
    `tty > ${quote(`${dir}/tty`)}`,
    `stty cols ${cols} rows ${rows}`,
    command,
    "code=$?",
    `stty -a > ${quote(`${dir}/stty`)}`,
    "exit $code",
  ].join("; ");
  const child = new Deno.Command("script", {
    args: ["-qfec", inner, "/dev/null"],
    cwd: options.cwd,
    clearEnv: true,
    env,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const terminal = new xterm.Terminal({ cols, rows, allowProposedApi: true, scrollback: 5000 });
  let raw = "";
  const writer = child.stdin.getWriter();
  const reading = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stdout) {
      const text = decoder.decode(chunk, { stream: true });
      raw += text;
      terminal.write(text);
    }
  })();
  const stderr = new Response(child.stderr).text();
  const flushed = () => new Promise<void>((resolve) => terminal.write("", resolve));
  const rowsOf = (from: number, to: number) => {
    const buffer = terminal.buffer.active;
    const result: string[] = [];
    for (let index = from; index < to; index++) {
      result.push(buffer.getLine(index)?.translateToString(true) ?? "");
    }
    return result;
  };
  const screen = async () => {
    await flushed();
    const buffer = terminal.buffer.active;
    return rowsOf(buffer.baseY, buffer.baseY + terminal.rows);
  };
  const timer = setTimeout(() => void kill("SIGKILL"), timeoutMs);
  const status = child.status.finally(() => clearTimeout(timer));

  async function innerPid(): Promise<number | null> {
    const shell = Number((await Deno.readTextFile(`${dir}/pid`).catch(() => "")).trim());
    if (!shell) return null;
    for await (const entry of Deno.readDir("/proc")) {
      if (!/^\d+$/.test(entry.name)) continue;
      const stat = await Deno.readTextFile(`/proc/${entry.name}/stat`).catch(() => "");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (parent === shell) return Number(entry.name);
    }
    return null;
  }

  async function kill(signal: Deno.Signal) {
    const pid = await innerPid();
    try {
      if (pid !== null) Deno.kill(pid, signal);
      else child.kill(signal);
    } catch {
      // already gone
    }
  }

  const session: PtySession = {
    async type(keys) {
      await writer.write(encoder.encode(keys));
    },
    screen,
    async allRows() {
      await flushed();
      const buffer = terminal.buffer.active;
      return rowsOf(0, buffer.length);
    },
    async waitFor(ready, what, waitMs = 20_000) {
      const deadline = Date.now() + waitMs;
      for (;;) {
        const text = (await screen()).join("\n");
        if (ready(text)) return text;
        if (Date.now() > deadline) {
          throw new Error(`the screen never showed ${what}:\n${text}\n--- stderr\n${await peek()}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    async settle(quietMs = 150) {
      let seen = raw.length;
      let since = Date.now();
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        if (raw.length !== seen) {
          seen = raw.length;
          since = Date.now();
        } else if (Date.now() - since >= quietMs && raw.endsWith("\x1b[?2026l")) return;
      }
    },
    async resize(newCols, newRows) {
      await flushed();
      terminal.resize(newCols, newRows);
      const tty = (await Deno.readTextFile(`${dir}/tty`)).trim();
      await new Deno.Command("stty", {
        args: ["-F", tty, "cols", String(newCols), "rows", String(newRows)],
      }).output();
    },
    kill,
    async wait() {
      const { code } = await status;
      await reading;
      await flushed();
      const sttyAfter = await Deno.readTextFile(`${dir}/stty`).catch(() => "");
      return { code, raw, sttyAfter };
    },
    raw: () => raw,
    async [Symbol.asyncDispose]() {
      await kill("SIGKILL");
      await writer.close().catch(() => {});
      await status.catch(() => {});
      await reading.catch(() => {});
      await stderr.catch(() => "");
      terminal.dispose();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
  async function peek(): Promise<string> {
    return await Promise.race([stderr, Promise.resolve("(still running)")]);
  }
  return session;
}
