/**
 * What one run gives its extensions: the values behind `ctx` and the host
 * callbacks the front end provides. The app builds it once per run and passes
 * it to every user tool and to the hook runner.
 *
 * @module
 */

import type { SecretSet } from "../secrets/secrets.ts";
import { isRecord } from "../base/unknown.ts";
import type { CapabilityPolicy } from "./capabilities.ts";
import type { CommandSandbox } from "../sandbox/command_sandbox.ts";

/** A yes/no question from `ctx.confirm`. */
export interface ConfirmQuestion {
  readonly title: string;
  readonly body: string;
}

/** A notice from `ctx.notify`. */
export interface UserNotice {
  readonly title: string;
  readonly body: string;
}

/** The values and callbacks behind every `ctx` of one run. */
export interface ExtensionRunContext {
  /** Absolute workspace directory (`ctx.workdir`). */
  readonly workdir: string;
  /** `ctx.session`. */
  readonly session: {
    readonly id: string;
    readonly agentId: string;
    readonly modelId: string;
  };
  /** `ctx.agent`: the agent id, its whole frontmatter and its body. */
  readonly agent: {
    readonly name: string;
    readonly frontmatter: Readonly<Record<string, unknown>>;
    readonly systemPrompt: string;
  };
  /** The whole parsed `config.yaml` (`ctx.config`: a frozen copy, its keys masked, MCP servers by name and transport only). */
  readonly config: Readonly<Record<string, unknown>>;
  /** The run's secrets: `ctx.config` shows its keys masked with them. */
  readonly secrets: SecretSet;
  /** `$RIENDA_HOME/cache`, backing `ctx.cache`. */
  readonly cacheDir: string;
  /** `$RIENDA_HOME/store`, backing `ctx.store`. */
  readonly storeDir: string;
  /** What `config.yaml` says about capabilities; absent: undeclared extensions have full access. */
  readonly policy?: CapabilityPolicy;
  /** `-y`: `ctx.confirm` answers true without asking. */
  readonly autoApprove: boolean;
  /** What confines `ctx.system.exec` (docs/sandbox.md); absent with `sandbox: off`. */
  readonly sandbox?: CommandSandbox;
  /**
   * Asks a person (interactive mode). Absent when nobody can answer: then
   * `ctx.confirm` is false unless {@link autoApprove}.
   */
  readonly confirm?: (question: ConfirmQuestion, signal: AbortSignal) => Promise<boolean>;
  /** Shows `ctx.notify`; absent without a UI, where notices are dropped. */
  readonly notify?: (notice: UserNotice) => void;
  /** Receives hook notices (`hook "x": …`), including `ctx.log` and exec output of hooks. */
  readonly notice: (text: string) => void;
}

/** `config` with each `mcp_servers` entry reduced to its transport: `{"github": {"transport": "stdio"}}`. */
function withServerNamesOnly(
  config: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  const servers = config["mcp_servers"];
  if (!isRecord(servers)) return config;
  const named: Record<string, { transport: "stdio" | "http" }> = {};
  for (const [name, entry] of Object.entries(servers)) {
    named[name] = { transport: isRecord(entry) && "url" in entry ? "http" : "stdio" };
  }
  return { ...config, "mcp_servers": named };
}

const contextJsonCache = new WeakMap<ExtensionRunContext, string>();

/** The JSON data the guest turns into `ctx` (computed once per run context). */
export function guestContextJson(context: ExtensionRunContext): string {
  const cached = contextJsonCache.get(context);
  if (cached !== undefined) return cached;
  const { frontmatter } = context.agent;
  const json = JSON.stringify({
    workdir: context.workdir,
    session: { ...context.session, workdir: context.workdir },
    agent: {
      ...frontmatter,
      config: frontmatter.config ?? {},
      tools: frontmatter.tools ?? [],
      hooks: frontmatter.hooks ?? [],
      name: context.agent.name,
      systemPrompt: context.agent.systemPrompt,
    },
    // Keys and credential headers show masked (`sk-…1234`), as in everything rienda prints,
    // and MCP servers by name and transport only (their args, env and headers hold tokens):
    // without this, an extension granted nothing would read them here.
    config: JSON.parse(
      context.secrets.mask(JSON.stringify(withServerNamesOnly(context.config))),
    ),
  });
  contextJsonCache.set(context, json);
  return json;
}
