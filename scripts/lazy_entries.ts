/**
 * The modules rienda loads lazily, in one place: by a computed specifier
 * (`deno run` walks every literal dynamic import at start-up, so a literal
 * one would make every command pay for the module and its dependencies) or
 * as a worker. No bundler follows either, so the bundle (`bundle.ts`) and
 * `deno compile` (`compile.ts`, `--include`) take them from this list, and
 * `tests/distribution_test.ts` checks it against the code: every computed
 * specifier and worker URL of `src/` is here, spelled as its loader spells
 * it, and every loader of a `module` entry types what it imports as
 * `typeof import("<the same specifier>")`, so the type is the module's own
 * (a type-level `import()` is erased: `deno run` does not load it).
 *
 * @module
 */

/** A module the CLI loads by a computed specifier or as a worker. */
export interface LazyEntry {
  /** The module, relative to the root. */
  readonly module: string;
  /** `module`: imported by a computed specifier; `worker`: started as a worker. */
  readonly kind: "module" | "worker";
  /** The module that loads it, and how it spells the specifier there. */
  readonly loadedBy: string;
  readonly spelled: string;
}

/** Every lazily loaded module. */
export const LAZY_ENTRIES: readonly LazyEntry[] = [
  {
    module: "src/cli/program.ts",
    kind: "module",
    loadedBy: "src/main.ts",
    spelled: "./cli/program.ts",
  },
  {
    module: "src/extensions/worker/guest_worker.ts",
    kind: "worker",
    loadedBy: "src/extensions/guest_worker_handle.ts",
    spelled: "./worker/guest_worker.ts",
  },
  {
    module: "src/tools/grep_worker.ts",
    kind: "worker",
    loadedBy: "src/tools/grep.ts",
    spelled: "./grep_worker.ts",
  },
  {
    module: "src/mcp/mcp_tools.ts",
    kind: "module",
    loadedBy: "src/app/load_mcp.ts",
    spelled: "../mcp/mcp_tools.ts",
  },
  {
    module: "src/acp/server.ts",
    kind: "module",
    loadedBy: "src/cli/acp.ts",
    spelled: "../acp/server.ts",
  },
  {
    module: "src/ui/interactive/main.ts",
    kind: "module",
    loadedBy: "src/cli/interactive.ts",
    spelled: "../ui/interactive/main.ts",
  },
  {
    module: "src/ui/interactive/highlight_languages.ts",
    kind: "module",
    loadedBy: "src/ui/interactive/highlight.ts",
    spelled: "./highlight_languages.ts",
  },
];
