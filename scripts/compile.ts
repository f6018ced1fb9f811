/**
 * `deno task compile`: builds `dist/rienda-<target>` for every release target
 * with `deno compile`, using the same permission set as `deno task dev`
 * (`-P=rienda --no-prompt`). `deno compile` downloads the Deno runtime of each
 * target, so this needs network access (run it on a release machine).
 *
 * Usage: `deno task compile [TARGET...]` (default: every target below).
 *
 * @module
 */

/** The release targets, as `deno compile --target` names them. */
export const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
] as const;

/**
 * Modules `deno compile` cannot discover by itself: the extension worker and
 * the `grep` tool's worker are started with `new Worker(url)`, the MCP
 * client is imported through a non-literal specifier (`app/load_mcp.ts`),
 * and so are the interactive UI and its highlighter (so `deno run` does not
 * walk them for the other commands); the module graph follows none of them.
 */
const EXTRA_MODULES = [
  "src/extensions/worker/guest_worker.ts",
  "src/tools/grep_worker.ts",
  "src/mcp/mcp_tools.ts",
  "src/ui/interactive/main.ts",
  "src/ui/interactive/highlight_languages.ts",
];

/** The `deno compile` arguments of one target. */
export function compileArgs(target: string): string[] {
  const extension = target.includes("windows") ? ".exe" : "";
  return [
    "compile",
    "-q",
    "-P=rienda",
    "--no-prompt",
    ...EXTRA_MODULES.flatMap((module) => ["--include", module]),
    "--target",
    target,
    "--output",
    `dist/rienda-${target}${extension}`,
    "src/main.ts",
  ];
}

async function compile(target: string): Promise<boolean> {
  const status = await new Deno.Command(Deno.execPath(), {
    args: compileArgs(target),
    stdin: "null",
  }).spawn().status;
  return status.success;
}

if (import.meta.main) {
  const chosen = Deno.args.length > 0 ? Deno.args : [...TARGETS];
  const unknown = chosen.filter((target) => !(TARGETS as readonly string[]).includes(target));
  if (unknown.length > 0) {
    throw new Error(`unknown target ${unknown.join(", ")} (known: ${TARGETS.join(", ")})`);
  }
  await Deno.mkdir("dist", { recursive: true });
  let failed = 0;
  for (const target of chosen) {
    const ok = await compile(target);
    Deno.stderr.writeSync(new TextEncoder().encode(`${ok ? "built" : "FAILED"} ${target}\n`));
    if (!ok) failed++;
  }
  Deno.exit(failed === 0 ? 0 : 1);
}
