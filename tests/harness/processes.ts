/**
 * Looking at live processes from the outside, through Linux's `/proc`: which
 * commands still run, and which process under `deno task` is rienda itself
 * (the one to `kill -9`), and what its threads are blocked in.
 *
 * @module
 */

import { RIENDA_ENTRY } from "./rienda.ts";

/** The command line of process `pid` with spaces for NULs, or null when it is gone. */
async function commandLine(pid: string): Promise<string | null> {
  try {
    return (await Deno.readTextFile(`/proc/${pid}/cmdline`)).replaceAll("\0", " ");
  } catch {
    return null; // the process ended while we looked
  }
}

/** The parent pid of process `pid`, or null when it is gone. */
async function parentOf(pid: string): Promise<string | null> {
  try {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
    // `pid (comm) state ppid …`: comm may hold spaces and parentheses.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1] ?? null;
  } catch {
    return null;
  }
}

async function livePids(): Promise<string[]> {
  const pids: string[] = [];
  for await (const entry of Deno.readDir("/proc")) {
    if (/^\d+$/.test(entry.name)) pids.push(entry.name);
  }
  return pids;
}

/** Pids of live processes whose command line contains `text`. */
export async function processesRunning(text: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of await livePids()) {
    if ((await commandLine(pid))?.includes(text)) found.push(pid);
  }
  return found;
}

/**
 * The pid of the process at or below `ancestor` whose command line contains
 * `text` (e.g. `src/main.ts`: the rienda process below `deno task`), the lowest
 * one when a shell above it names it too (`sh -c "deno run … main.js"`), or null.
 */
export async function descendantRunning(ancestor: number, text: string): Promise<number | null> {
  const parents = new Map<string, string>();
  for (const pid of await livePids()) {
    const parent = await parentOf(pid);
    if (parent !== null) parents.set(pid, parent);
  }
  const chain = (pid: string): string[] => {
    const up: string[] = [pid];
    for (let next = parents.get(pid); next !== undefined; next = parents.get(next)) up.push(next);
    return up;
  };
  const matches: string[] = [];
  for (const pid of [String(ancestor), ...parents.keys()]) {
    if (pid !== String(ancestor) && !chain(pid).includes(String(ancestor))) continue;
    if ((await commandLine(pid))?.includes(text)) matches.push(pid);
  }
  const lowest = matches.find((pid) =>
    !matches.some((other) => other !== pid && chain(other).includes(pid))
  );
  return lowest === undefined ? null : Number(lowest);
}

/** Resolves once no live process has `text` in its command line; false after `timeoutMs`. */
export async function processesGone(text: string, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while ((await processesRunning(text)).length > 0) {
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

/** The number of `read` on this machine's architecture (the first field of `/proc/…/syscall`). */
const READ_SYSCALL = Deno.build.arch === "aarch64" ? "63" : "0";

/**
 * Resolves once the rienda process below `ancestor` has a thread blocked in
 * `read` of its standard input (Deno reads a duplicate of fd 0: the same
 * pipe). Rejects after `timeoutMs`.
 */
export async function readingStdin(ancestor: number, timeoutMs = 20_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const pid = await descendantRunning(ancestor, RIENDA_ENTRY);
    if (pid !== null && await readsStdin(pid)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`rienda below ${ancestor} never waited on its standard input`);
}

/** Whether a thread of `pid` is in `read` of a descriptor open on the file of its fd 0. */
async function readsStdin(pid: number): Promise<boolean> {
  try {
    const stdin = await Deno.readLink(`/proc/${pid}/fd/0`);
    for await (const task of Deno.readDir(`/proc/${pid}/task`)) {
      const call = await Deno.readTextFile(`/proc/${pid}/task/${task.name}/syscall`);
      const [number, fd] = call.split(" ");
      if (number !== READ_SYSCALL || fd === undefined) continue;
      const file = await Deno.readLink(`/proc/${pid}/fd/${Number(fd)}`).catch(() => "");
      if (file === stdin) return true;
    }
  } catch {
    // the process (or a thread) ended while we looked
  }
  return false;
}
