/**
 * `rienda acp [-a AGENT | -f FILE] [-m MODEL] [-y] [--config PATH]`: serves
 * the Agent Client Protocol on stdin/stdout for an editor (docs/editors.md).
 *
 * The server (and with it the ACP SDK) is loaded through a computed
 * specifier, so `deno run` never walks it for the other commands.
 *
 * @module
 */

import { agentFlag } from "./flags.ts";
import type { SandboxMode } from "../sandbox/sandbox_setting.ts";
import type { Io } from "../ui/io.ts";
import { terminalSafe } from "../ui/terminal_text.ts";

/** The parsed flags of `rienda acp`. */
export interface AcpFlags {
  readonly agent: string | undefined;
  readonly agentFile: string | undefined;
  readonly model: string | undefined;
  readonly config: string | undefined;
  readonly autoApprove: boolean;
  /** `--sandbox MODE` (docs/sandbox.md). */
  readonly sandbox: SandboxMode | undefined;
}

/**
 * What `acp/server.ts` exports. A type-level `import()` is erased: `deno run`
 * loads the module only when {@link acpCommand} imports it.
 */
type AcpServer = typeof import("../acp/server.ts");

/** Serves one editor until it closes stdin; resolves to the exit code. */
export async function acpCommand(io: Io, signal: AbortSignal, flags: AcpFlags): Promise<number> {
  const server: AcpServer = await import(new URL("../acp/server.ts", import.meta.url).href);
  const decoder = new TextDecoder();
  // Every protocol line goes through the process's stdout, which masks known keys.
  const output = new WritableStream<Uint8Array>({
    write: (chunk) => io.stdout.write(decoder.decode(chunk, { stream: true })),
  });
  await server.serveAcp({
    input: io.stdinBytes(),
    output,
    log: (line) => io.stderr.write(`rienda acp: ${terminalSafe(line)}\n`),
    agent: {
      agent: agentFlag(io.cwd, flags),
      model: flags.model,
      config: flags.config,
      autoApprove: flags.autoApprove,
      sandbox: flags.sandbox,
      env: io.env,
      secrets: io.secrets,
    },
    signal,
  });
  return 0;
}
