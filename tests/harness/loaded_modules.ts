/**
 * What `deno run` loads of a module graph: the specifiers reached from an
 * entry point through code imports (`deno info --json`, `code` edges only).
 * Type-only imports, `import type` and `typeof import("…")`, are erased and
 * never loaded, so they are not followed.
 *
 * @module
 */

import { CHECKOUT_DIR } from "./rienda.ts";

interface InfoModule {
  readonly specifier: string;
  readonly dependencies?: readonly { readonly code?: { readonly specifier?: string } }[];
}

/** Every specifier `deno run` loads starting at `entry` (a path relative to the checkout). */
export async function loadedModules(entry: string): Promise<string[]> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--config", `${CHECKOUT_DIR}/deno.json`, `${CHECKOUT_DIR}/${entry}`],
    stdin: "null",
  }).output();
  if (!output.success) throw new Error(new TextDecoder().decode(output.stderr));
  const info: {
    roots: readonly string[];
    modules: readonly InfoModule[];
    redirects?: Record<string, string>;
  } = JSON.parse(new TextDecoder().decode(output.stdout));
  const redirects = info.redirects ?? {};
  const byName = new Map(info.modules.map((module) => [module.specifier, module]));
  const reached = new Set<string>();
  const stack = [...info.roots];
  while (stack.length > 0) {
    const name = stack.pop()!;
    const specifier = redirects[name] ?? name;
    if (reached.has(specifier)) continue;
    reached.add(specifier);
    for (const dependency of byName.get(specifier)?.dependencies ?? []) {
      if (dependency.code?.specifier !== undefined) stack.push(dependency.code.specifier);
    }
  }
  return [...reached];
}
