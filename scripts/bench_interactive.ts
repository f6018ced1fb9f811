/**
 * Interactive-mode numbers for `deno task bench`, in a pseudo-terminal
 * (`script`, 80x24), against the fake provider:
 *
 * - time from process start to a usable prompt (the editor's placeholder on
 *   screen, taking keys), and to the agent loaded (its name on the status
 *   line), medians of `BENCH_RUNS`;
 * - streaming a 2,000-token answer at 50 tokens/s: CPU time of the process
 *   over the answer's duration, and bytes written per token.
 *
 * @module
 */

import { startFakeProvider } from "../tests/harness/fake_provider.ts";
import { createTestEnv } from "../tests/harness/env.ts";
import { CHECKOUT_DIR } from "../tests/harness/rienda.ts";

/** The placeholder as written (its first cell carries the drawn cursor): the editor takes keys. */
export const READY = "sk the agent something";
/** The status line once the engine and the agent have loaded (the editor is drawn before). */
export const LOADED = "coder\x1b[22m\x1b[2m · \x1b[22m\x1b[2mfake/m";

/** `text` as one single-quoted shell word. */
export function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

interface PtyRun {
  readonly child: Deno.ChildProcess;
  readonly output: () => string;
  readonly send: (keys: string) => Promise<void>;
  readonly done: Promise<void>;
}

/** Runs `command` (a shell line) in a pty; `onOutput` sees the whole output after each chunk. */
function inPty(
  command: string,
  cwd: string,
  env: Record<string, string>,
  onOutput: (all: string) => void,
): PtyRun {
  const child = new Deno.Command("script", {
    args: ["-qfec", `stty cols 80 rows 24; ${command}`, "/dev/null"],
    cwd,
    env,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  let all = "";
  const writer = child.stdin.getWriter();
  const done = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stdout) {
      all += decoder.decode(chunk, { stream: true });
      onOutput(all);
    }
    await child.status;
  })();
  return {
    child,
    output: () => all,
    send: (keys) => writer.write(new TextEncoder().encode(keys)),
    done: done.finally(() => writer.close().catch(() => {})),
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** The deno command line that runs the CLI as the dev task does. */
function cli(args: readonly string[]): string {
  return [
    Deno.execPath(),
    "run",
    "-q",
    "--config",
    `${CHECKOUT_DIR}/deno.json`,
    "-P=rienda",
    "--no-prompt",
    `${CHECKOUT_DIR}/src/main.ts`,
    ...args,
  ].map(quote).join(" ");
}

/** Median seconds from spawning `command` to `ready` appearing in its output. */
export async function timeToReady(
  command: string,
  ready: string,
  options: { cwd: string; env: Record<string, string>; runs: number; quit: string },
): Promise<number> {
  const samples: number[] = [];
  for (let run = 0; run <= options.runs; run++) {
    const started = performance.now();
    let readyAt = 0;
    let resolveReady: () => void = () => {};
    const seen = new Promise<void>((resolve) => (resolveReady = resolve));
    const pty = inPty(command, options.cwd, options.env, (all) => {
      if (readyAt === 0 && all.includes(ready)) {
        readyAt = performance.now();
        resolveReady();
      }
    });
    await Promise.race([seen, pty.done]);
    await pty.send(options.quit);
    await pty.done;
    if (readyAt === 0) throw new Error(`never saw ${ready}:\n${pty.output()}`);
    if (run > 0) samples.push((readyAt - started) / 1000);
  }
  return median(samples);
}

/** The interactive scenarios' result lines. */
export async function measureInteractive(runs: number): Promise<string[]> {
  await using provider = await startFakeProvider();
  await using env = await createTestEnv({ provider });
  const childEnv = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: env.userHome,
    RIENDA_HOME: env.home,
    TERM: "xterm-256color",
  };
  const lines: string[] = [];
  const start = await timeToReady(cli(["-a", "coder"]), READY, {
    cwd: env.workdir,
    env: childEnv,
    runs,
    quit: "\x04",
  });
  lines.push(`start to usable prompt (pty)        ${start.toFixed(3)} s  (target ≤ 0.25 s)`);
  const loaded = await timeToReady(cli(["-a", "coder"]), LOADED, {
    cwd: env.workdir,
    env: childEnv,
    runs,
    quit: "\x04",
  });
  lines.push(`start to agent loaded (status line) ${loaded.toFixed(3)} s`);

  // 2,000 tokens at 50 tokens/s: one SSE event per token, 20 ms apart.
  const tokens = 2_000;
  const text = Array.from({ length: tokens }, (_, i) => (i % 40 === 39 ? "word.\n\n" : "word "))
    .join("");
  provider.push({ text, chunks: tokens, chunkDelayMs: 20 });
  const timeFile = `${env.root}/time.txt`;
  let wrote = 0;
  const command = `/usr/bin/time -o ${quote(timeFile)} -f '%U %S %e' ${cli(["-a", "coder", "go"])}`;
  let sent = false;
  const pty = inPty(command, env.workdir, childEnv, (all) => {
    wrote = new TextEncoder().encode(all).length;
    // Idle again: the placeholder is back after the last activity row.
    const busy = all.lastIndexOf("esc to interrupt");
    if (!sent && busy !== -1 && all.lastIndexOf(READY) > busy) {
      sent = true;
      void pty.send("\x04");
    }
  });
  await pty.done;
  const [user, system, elapsed] = (await Deno.readTextFile(timeFile)).trim().split("\n").at(-1)!
    .split(" ").map(Number);
  const cpu = user! + system!;
  lines.push(
    `stream 2,000 tokens at 50/s          ${(cpu / elapsed! * 100).toFixed(1)} % of a core ` +
      `(${cpu.toFixed(2)} s CPU over ${elapsed!.toFixed(1)} s), ${
        (wrote / tokens).toFixed(0)
      } bytes/token` +
      "  (target ≤ 10 %)",
  );
  return lines;
}
