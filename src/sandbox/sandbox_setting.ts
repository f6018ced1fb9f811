/**
 * The `sandbox:` setting of `config.yaml` and agent frontmatter
 * (docs/sandbox.md): a mode (`workspace-write`, `read-only`, `off`), or the
 * object form `{ mode, network, writable }`, checked here with one worded
 * problem per field, and the order of strictness that lets a project's agent
 * file tighten the setting but never loosen it.
 *
 * @module
 */

/** The modes, strictest last. */
export const SANDBOX_MODES = ["off", "workspace-write", "read-only"] as const;

/** One mode. */
export type SandboxMode = typeof SANDBOX_MODES[number];

/** A checked `sandbox:` value. */
export interface SandboxSetting {
  readonly mode: SandboxMode;
  /** Whether commands may reach the network (only meaningful when the mode is not `off`). */
  readonly network: boolean;
  /** Paths writable besides the workspace and the private temp folder, as written (`~/…` or absolute). */
  readonly writable: readonly string[];
}

/** What a command runs with when nothing sets `sandbox:`. */
export const DEFAULT_SANDBOX: SandboxSetting = { mode: "off", network: true, writable: [] };

/** A problem of a `sandbox:` value: the key path below `sandbox` and what is wrong. */
export interface SandboxProblem {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

const OBJECT_KEYS = ["mode", "network", "writable"];

/** Whether `value` names a mode. */
export function isSandboxMode(value: unknown): value is SandboxMode {
  return typeof value === "string" && (SANDBOX_MODES as readonly string[]).includes(value);
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return JSON.stringify(value);
  return typeof value === "object" ? "a mapping" : `${typeof value} ${String(value)}`;
}

const MODE_WORDS = "workspace-write, read-only or off";

function modeProblem(value: unknown, path: readonly (string | number)[]): SandboxProblem {
  return { path, message: `must be ${MODE_WORDS} (found ${kindOf(value)})` };
}

/** Why a `writable:` entry cannot be used, or null. */
function writableProblem(item: string): string | null {
  if (item.includes("\0")) return "must not contain a NUL character";
  if (!item.startsWith("/") && item !== "~" && !item.startsWith("~/")) {
    return `must be an absolute path or start with "~/" (found ${JSON.stringify(item)})`;
  }
  if (item.split("/").includes("..")) {
    return `must not contain ".." (write the folder itself, found ${JSON.stringify(item)})`;
  }
  return null;
}

function readWritable(value: unknown, problems: SandboxProblem[]): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    problems.push({
      path: ["writable"],
      message: `must be a list of paths such as [~/.cache/deno] (found ${kindOf(value)})`,
    });
    return [];
  }
  const items: string[] = [];
  value.forEach((item: unknown, index) => {
    const path = ["writable", index];
    if (typeof item !== "string") {
      problems.push({ path, message: `must be a path (found ${kindOf(item)})` });
      return;
    }
    const problem = writableProblem(item);
    if (problem === null) items.push(item);
    else problems.push({ path, message: problem });
  });
  return items;
}

/**
 * Checks a `sandbox:` value: a mode, or `{ mode, network?, writable? }`
 * (`network` defaults to false, `writable` to none).
 */
export function parseSandboxSetting(
  value: unknown,
): { readonly setting: SandboxSetting; readonly problems: readonly SandboxProblem[] } {
  const problems: SandboxProblem[] = [];
  if (isSandboxMode(value)) return { setting: modeSetting(value), problems };
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { setting: DEFAULT_SANDBOX, problems: [modeProblem(value, [])] };
  }
  const fields = value as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (!OBJECT_KEYS.includes(key)) {
      problems.push({ path: [key], message: `unknown key (expected: ${OBJECT_KEYS.join(", ")})` });
    }
  }
  const { mode, network } = fields;
  if (!isSandboxMode(mode)) {
    problems.push(
      mode === undefined
        ? { path: ["mode"], message: `missing (add "mode: workspace-write")` }
        : modeProblem(mode, ["mode"]),
    );
  }
  if (network !== undefined && network !== null && typeof network !== "boolean") {
    problems.push({
      path: ["network"],
      message: `must be true or false (found ${kindOf(network)})`,
    });
  }
  const writable = readWritable(fields["writable"], problems);
  if (problems.length > 0) return { setting: DEFAULT_SANDBOX, problems };
  const checked = mode as SandboxMode;
  return {
    setting: checked === "off"
      ? DEFAULT_SANDBOX
      : { mode: checked, network: network === true, writable },
    problems,
  };
}

/** The setting of a bare mode: no network, no extra writable paths (`off`: everything). */
export function modeSetting(mode: SandboxMode): SandboxSetting {
  return mode === "off" ? DEFAULT_SANDBOX : { mode, network: false, writable: [] };
}

/** How listings and notes show a setting: `workspace-write`, `workspace-write (network, writable: ~/.cache)`. */
export function describeSandbox(setting: SandboxSetting): string {
  if (setting.mode === "off") return "off";
  const extras = [
    ...(setting.network ? ["network"] : []),
    ...(setting.mode === "workspace-write" && setting.writable.length > 0
      ? [`writable: ${setting.writable.join(", ")}`]
      : []),
  ];
  return extras.length === 0 ? setting.mode : `${setting.mode} (${extras.join(", ")})`;
}
