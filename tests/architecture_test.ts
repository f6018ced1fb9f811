/**
 * The import rules of docs/architecture.md, checked on the real module graph
 * (`deno info --json` over every product module of `src/`): each folder
 * imports only what its row of the table allows, every folder may import the
 * folders the doc says every folder may import, nothing but `main.ts` sits at
 * the root of `src/`, and neither folders nor modules form a cycle.
 */

import assert from "node:assert/strict";
import { CHECKOUT_DIR } from "./harness/rienda.ts";

const SRC_DIR = `${CHECKOUT_DIR}/src`;
const SRC_URL = `file://${SRC_DIR}/`;

/** The folders every folder may import: "Every folder may import `base/`". */
const EVERYWHERE_SENTENCE = /Every folder may import ((?:`[a-z_]+\/`(?:, | and )?)+)/;

interface Rules {
  /** Row key (`engine/` or `main.ts`) → the folders (`llm/`) and files (`tools/tool.ts`) it may import. */
  readonly allowed: ReadonlyMap<string, readonly string[]>;
  /** Folders (`base/`) every folder may import. */
  readonly everywhere: readonly string[];
  /** The modules the doc names outside the table (`- `base/unknown.ts`: …`). */
  readonly named: readonly string[];
}

async function readRules(): Promise<Rules> {
  const doc = await Deno.readTextFile(`${CHECKOUT_DIR}/docs/architecture.md`);
  const allowed = new Map<string, string[]>();
  for (const line of doc.split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim());
    const key = /^`([^`]+)`$/.exec(cells[1] ?? "")?.[1];
    if (key === undefined || cells.length < 5) continue;
    const targets = [...(cells[3] ?? "").matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? "");
    allowed.set(key, targets);
  }
  const sentence = EVERYWHERE_SENTENCE.exec(doc)?.[1] ?? "";
  const everywhere = [...sentence.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? "");
  const named = [...doc.matchAll(/^- `([a-z_]+\/[a-z_]+\.ts)`:/gm)].map((match) => match[1] ?? "");
  return { allowed, everywhere, named };
}

async function productModules(dir = SRC_DIR): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) {
      if (entry.name !== "testdata") found.push(...await productModules(path));
    } else if (/\.ts$/.test(entry.name) && !/_(test|bench)\.ts$/.test(entry.name)) {
      found.push(path);
    }
  }
  return found.sort();
}

/** Module (relative to `src/`) → the `src/` modules it imports, from `deno info --json`. */
async function importGraph(modules: readonly string[]): Promise<Map<string, Set<string>>> {
  const entry = await Deno.makeTempFile({ suffix: ".ts" });
  try {
    await Deno.writeTextFile(entry, modules.map((path) => `import "file://${path}";\n`).join(""));
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", "--config", `${CHECKOUT_DIR}/deno.json`, entry],
      stdin: "null",
    }).output();
    assert.ok(output.success, new TextDecoder().decode(output.stderr));
    const info: {
      modules: { specifier: string; dependencies?: Record<string, { specifier?: string }>[] }[];
    } = JSON.parse(new TextDecoder().decode(output.stdout));
    const graph = new Map<string, Set<string>>();
    for (const module of info.modules) {
      if (!module.specifier.startsWith(SRC_URL)) continue;
      const targets = new Set<string>();
      for (const dependency of module.dependencies ?? []) {
        for (const kind of ["code", "type"]) {
          const target = dependency[kind]?.specifier ?? "";
          if (target.startsWith(SRC_URL)) targets.add(target.slice(SRC_URL.length));
          else if (target.startsWith(`file://${CHECKOUT_DIR}/tests/`)) targets.add(target);
        }
      }
      graph.set(module.specifier.slice(SRC_URL.length), targets);
    }
    return graph;
  } finally {
    await Deno.remove(entry);
  }
}

/** `engine/run.ts` → `engine/`; `main.ts` → `main.ts`. */
function ownerOf(module: string): string {
  const slash = module.indexOf("/");
  return slash === -1 ? module : module.slice(0, slash + 1);
}

function findCycle(graph: ReadonlyMap<string, ReadonlySet<string>>): string[] | null {
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  function visit(node: string): string[] | null {
    state.set(node, "open");
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") return [...path.slice(path.indexOf(next)), next];
      if (state.get(next) === undefined) {
        const cycle = visit(next);
        if (cycle !== null) return cycle;
      }
    }
    path.pop();
    state.set(node, "done");
    return null;
  }
  for (const node of graph.keys()) {
    if (state.get(node) === undefined) {
      const cycle = visit(node);
      if (cycle !== null) return cycle;
    }
  }
  return null;
}

const rules = await readRules();
const modules = await productModules();
const graph = await importGraph(modules);

Deno.test("docs/architecture.md names only folders and files that exist", async () => {
  assert.ok(rules.allowed.size >= 10, `only ${rules.allowed.size} rows read`);
  assert.ok(rules.everywhere.length >= 1, "no folder every folder may import read");
  assert.ok(rules.named.length >= 5, `only ${rules.named.length} modules named outside the table`);
  for (
    const target of [
      ...rules.allowed.keys(),
      ...[...rules.allowed.values()].flat(),
      ...rules.everywhere,
      ...rules.named,
    ]
  ) {
    await Deno.stat(`${SRC_DIR}/${target}`).catch(() => assert.fail(`${target} does not exist`));
  }
  const owners = new Set(modules.map((path) => ownerOf(path.slice(SRC_DIR.length + 1))));
  for (const owner of owners) assert.ok(rules.allowed.has(owner), `${owner} has no row`);
});

Deno.test("nothing but main.ts sits at the root of src/", () => {
  const atRoot = modules.map((path) => path.slice(SRC_DIR.length + 1)).filter((path) =>
    !path.includes("/")
  );
  assert.deepEqual(atRoot, ["main.ts"]);
});

Deno.test("every import between folders is one docs/architecture.md allows", () => {
  const forbidden: string[] = [];
  for (const [module, targets] of graph) {
    const owner = ownerOf(module);
    for (const target of targets) {
      const targetOwner = ownerOf(target);
      if (targetOwner === owner || rules.everywhere.includes(targetOwner)) continue;
      const allowed = rules.everywhere.includes(owner) ? [] : rules.allowed.get(owner) ?? [];
      if (!allowed.some((entry) => entry === target || entry === targetOwner)) {
        forbidden.push(`${module} → ${target}`);
      }
    }
  }
  assert.deepEqual(forbidden, [], "imports docs/architecture.md does not allow");
});

Deno.test("the folders every folder may import import nothing outside themselves", () => {
  for (const [module, targets] of graph) {
    const owner = ownerOf(module);
    if (!rules.everywhere.includes(owner)) continue;
    const outside = [...targets].filter((target) => ownerOf(target) !== owner);
    assert.deepEqual(outside, [], module);
  }
});

Deno.test("no cycle between folders, nor between modules", () => {
  const folders = new Map<string, Set<string>>();
  for (const [module, targets] of graph) {
    const owner = ownerOf(module);
    const edges = folders.get(owner) ?? new Set();
    for (const target of targets) if (ownerOf(target) !== owner) edges.add(ownerOf(target));
    folders.set(owner, edges);
  }
  assert.equal(findCycle(folders)?.join(" → ") ?? null, null);
  assert.equal(findCycle(graph)?.join(" → ") ?? null, null);
});
