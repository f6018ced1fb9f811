/**
 * Peak resident memory of the processes of a tree, from `/proc` (Linux only):
 * what a test reads to check that a run stays within a memory budget.
 *
 * @module
 */

function parentOf(pid: string): number | null {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    // The command name is in parentheses and may contain spaces: fields follow the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[1]);
  } catch {
    return null; // gone meanwhile
  }
}

/** The kernel's high-water mark of a process's resident memory (`VmHWM`), in bytes; 0 when gone. */
function peakResident(pid: number): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(Deno.readTextFileSync(`/proc/${pid}/status`));
    return match?.[1] === undefined ? 0 : Number(match[1]) * 1024;
  } catch {
    return 0;
  }
}

/** `pid` and all its descendants now. */
function treeOf(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const parent = parentOf(entry.name);
    if (parent !== null) children.set(parent, [...children.get(parent) ?? [], Number(entry.name)]);
  }
  const tree: number[] = [];
  const pending = [pid];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    tree.push(next);
    pending.push(...children.get(next) ?? []);
  }
  return tree;
}

/**
 * The largest peak resident memory of any one process of the tree under
 * `pid` (such as the program under `deno task`), read every `intervalMs`
 * until `until` settles.
 */
export async function peakProcessResidentBytes(
  pid: number,
  until: Promise<unknown>,
  intervalMs = 50,
): Promise<number> {
  let peak = 0;
  let done = false;
  const finished = until.then(() => (done = true), () => (done = true));
  while (!done) {
    for (const member of treeOf(pid)) peak = Math.max(peak, peakResident(member));
    await Promise.race([finished, new Promise((resolve) => setTimeout(resolve, intervalMs))]);
  }
  return peak;
}
