/**
 * Shared fixtures of the extension tests (not shipped code): a temporary
 * workspace and home, a run context that records what it receives, and a
 * shortcut that runs a tool body in a real guest.
 *
 * @module
 */

import { join } from "node:path";
import type { GuestResult } from "../../src/extensions/guest_result.ts";
import type { ExtensionHost } from "../../src/extensions/host.ts";
import type {
  ConfirmQuestion,
  ExtensionRunContext,
  UserNotice,
} from "../../src/extensions/run_context.ts";
import { SecretSet } from "../../src/secrets/secrets.ts";

/** A run context plus what its callbacks received. */
export interface RecordingContext extends ExtensionRunContext {
  readonly notices: string[];
  readonly notifications: UserNotice[];
  readonly questions: ConfirmQuestion[];
}

/** A temporary directory holding `work/` (the workspace) and `home/`. */
export async function makeSandbox(): Promise<{ root: string; workdir: string; home: string }> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "rienda-ext-" }));
  const workdir = join(root, "work");
  const home = join(root, "home");
  await Deno.mkdir(workdir);
  await Deno.mkdir(home);
  return { root, workdir, home };
}

/** A run context over `workdir` and `home`; `overrides` replace any field. */
export function makeContext(
  paths: { workdir: string; home: string },
  overrides: Partial<ExtensionRunContext> = {},
): RecordingContext {
  const notices: string[] = [];
  const notifications: UserNotice[] = [];
  const questions: ConfirmQuestion[] = [];
  return {
    workdir: paths.workdir,
    session: { id: "01JTESTSESSION", agentId: "coder", modelId: "openai/gpt-4o" },
    agent: {
      name: "coder",
      frontmatter: {
        description: "A careful agent.",
        model: "openai/gpt-4o",
        config: { level: 2 },
      },
      systemPrompt: "You are careful.",
    },
    config: { default_model: "openai/gpt-4o", config: { "word-count": { min_length: 3 } } },
    secrets: new SecretSet(),
    cacheDir: join(paths.home, "cache"),
    storeDir: join(paths.home, "store"),
    autoApprove: false,
    notify: (notice) => notifications.push(notice),
    notice: (text) => notices.push(text),
    ...overrides,
    notices,
    notifications,
    questions,
  };
}

/** Options of {@link runTool}. */
export interface RunToolOptions {
  readonly args?: Record<string, unknown>;
  readonly signal?: AbortSignal;
  readonly output?: (text: string) => void;
}

/** Runs `execute(ctx, args) { <body> }` in a fresh guest. */
export function runTool(
  host: ExtensionHost,
  context: ExtensionRunContext,
  body: string,
  options: RunToolOptions = {},
): Promise<GuestResult> {
  return host.call({
    source: `module.exports = {\n  execute: function (ctx, args) {\n${body}\n  },\n};\n`,
    entry: "execute",
    args: [options.args ?? {}],
    context,
    output: options.output ?? (() => {}),
    signal: options.signal ?? new AbortController().signal,
  });
}

/** The JSON value a guest returned; throws with the whole result otherwise. */
export function returned(result: GuestResult): unknown {
  if (result.kind === "value" && result.value.kind === "json") return result.value.value;
  throw new Error(`expected a JSON value, got ${JSON.stringify(result)}`);
}

/** The error a guest threw; throws with the whole result otherwise. */
export function thrown(
  result: GuestResult,
): { name: string; message: string; line: number | null } {
  if (result.kind === "threw") return result.error;
  throw new Error(`expected a thrown error, got ${JSON.stringify(result)}`);
}
