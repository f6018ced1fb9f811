/**
 * What an extension may reach through `ctx` (docs/extending.md,
 * "Capabilities"): the shape an extension declares in its module and
 * `config.yaml` narrows (`extensions.<name>.capabilities`), checked and
 * described here. Enforcement is the bridge's (`extensions/bridge/access.ts`).
 *
 * @module
 */

/** One set of grants; a category left out of a declaration grants nothing. */
export interface CapabilitySet {
  /** Path grants: relative to the workspace, `~` for the home, or absolute. */
  readonly file: { readonly read: readonly string[]; readonly write: readonly string[] };
  /** Host patterns: `api.github.com`, `*.example.com` (subdomains), `*` (any), with an optional `:port`. */
  readonly http: readonly string[];
  /** `true`: shell strings and any program; a list: only those programs, through the argv form. */
  readonly exec: boolean | readonly string[];
  /** Environment variable names `ctx.env.get` may read. */
  readonly env: readonly string[];
  /** `ctx.store.shared` and `ctx.cache.shared`: the area every extension granted it shares. */
  readonly shared: boolean;
}

/** A problem of a capabilities value: the path below it and what is wrong. */
export interface CapabilityProblem {
  readonly path: readonly string[];
  readonly message: string;
}

/** An environment variable name. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A host pattern: `*`, a host name, `*.` and a host name, or an IPv6 literal; an optional port. */
const HOST_PATTERN =
  /^(?:\*|(?:\*\.)?[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*|\[[0-9a-f:.]+\])(?::[0-9]{1,5})?$/i;

const CATEGORIES = ["file", "http", "exec", "env", "shared"];

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" ? "an object" : /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringList(
  value: unknown,
  path: readonly string[],
  problems: CapabilityProblem[],
  check: (item: string) => string | null,
): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    problems.push({ path, message: `must be a list of strings (found ${kindOf(value)})` });
    return [];
  }
  const items: string[] = [];
  value.forEach((item: unknown, index) => {
    const at = [...path, String(index)];
    if (typeof item !== "string") {
      problems.push({ path: at, message: `must be a string (found ${kindOf(item)})` });
      return;
    }
    const problem = check(item);
    if (problem === null) items.push(item);
    else problems.push({ path: at, message: problem });
  });
  return items;
}

function pathProblem(item: string): string | null {
  if (item === "") return `must not be empty (use "." for the workspace)`;
  if (item.includes("\0")) return "must not contain a NUL character";
  if (item.startsWith("~") && item !== "~" && !item.startsWith("~/")) {
    return `"~" stands for the home only as "~" or "~/…" (found ${JSON.stringify(item)})`;
  }
  return null;
}

function hostProblem(item: string): string | null {
  if (HOST_PATTERN.test(item)) return null;
  const hint = /^[a-z]+:\/\//i.test(item) ? "a host, not a URL: " : "";
  return `must be ${hint}a host pattern such as "api.github.com", "*.example.com" or ` +
    `"127.0.0.1:8080" (found ${JSON.stringify(item)})`;
}

function programProblem(item: string): string | null {
  if (item === "") return "must not be empty";
  if (item.includes("\0")) return "must not contain a NUL character";
  return null;
}

function envProblem(item: string): string | null {
  return ENV_NAME.test(item)
    ? null
    : `must be an environment variable name such as GITHUB_TOKEN (found ${JSON.stringify(item)})`;
}

/**
 * Checks a capabilities value (a module's export, a `config.yaml` entry);
 * `null` or `undefined` categories grant nothing.
 */
export function parseCapabilitySet(
  value: unknown,
): { readonly set: CapabilitySet; readonly problems: readonly CapabilityProblem[] } {
  const problems: CapabilityProblem[] = [];
  const empty: CapabilitySet = {
    file: { read: [], write: [] },
    http: [],
    exec: false,
    env: [],
    shared: false,
  };
  if (value === null || value === undefined) return { set: empty, problems };
  if (!isPlainObject(value)) {
    problems.push({
      path: [],
      message: `must be an object such as { http: ["api.github.com"] } (found ${kindOf(value)})`,
    });
    return { set: empty, problems };
  }
  for (const key of Object.keys(value)) {
    if (!CATEGORIES.includes(key)) {
      problems.push({
        path: [key],
        message: `unknown capability (expected: ${CATEGORIES.join(", ")})`,
      });
    }
  }
  let file = empty.file;
  const rawFile = value.file;
  if (rawFile !== undefined && rawFile !== null) {
    if (!isPlainObject(rawFile)) {
      problems.push({
        path: ["file"],
        message: `must be an object { read?, write? } (found ${kindOf(rawFile)})`,
      });
    } else {
      for (const key of Object.keys(rawFile)) {
        if (key !== "read" && key !== "write") {
          problems.push({ path: ["file", key], message: "unknown key (expected: read, write)" });
        }
      }
      file = {
        read: stringList(rawFile.read, ["file", "read"], problems, pathProblem),
        write: stringList(rawFile.write, ["file", "write"], problems, pathProblem),
      };
    }
  }
  let exec: CapabilitySet["exec"] = false;
  if (typeof value.exec === "boolean") exec = value.exec;
  else exec = stringList(value.exec, ["exec"], problems, programProblem);
  const { shared } = value;
  if (shared !== undefined && shared !== null && typeof shared !== "boolean") {
    problems.push({ path: ["shared"], message: `must be true or false (found ${kindOf(shared)})` });
  }
  return {
    set: {
      file,
      http: stringList(value.http, ["http"], problems, hostProblem),
      exec,
      env: stringList(value.env, ["env"], problems, envProblem),
      shared: shared === true,
    },
    problems,
  };
}

function listText(items: readonly string[]): string {
  return items.length === 0 ? "none" : items.join(", ");
}

/** The text of one category (`file.read`, `http`, …) as messages and listings show it. */
export function describeCategory(
  set: CapabilitySet,
  category: "file.read" | "file.write" | "http" | "exec" | "env" | "shared",
): string {
  switch (category) {
    case "shared":
      return set.shared ? "granted" : "none";
    case "file.read":
      return listText(set.file.read);
    case "file.write":
      return listText(set.file.write);
    case "http":
      return listText(set.http);
    case "exec":
      return set.exec === true ? "any command" : set.exec === false ? "none" : listText(set.exec);
    case "env":
      return listText(set.env);
    default: {
      const never: never = category;
      throw new Error(`unknown category ${String(never)}`);
    }
  }
}

/**
 * One line: `file read: .; file write: .cache/x; http: api.github.com; exec: git; env: none`,
 * then `shared: store and cache` when granted.
 */
export function describeCapabilitySet(set: CapabilitySet): string {
  return [
    `file read: ${describeCategory(set, "file.read")}`,
    `file write: ${describeCategory(set, "file.write")}`,
    `http: ${describeCategory(set, "http")}`,
    `exec: ${describeCategory(set, "exec")}`,
    `env: ${describeCategory(set, "env")}`,
    // Shown only when granted: most extensions never use the shared area.
    ...(set.shared ? ["shared: store and cache"] : []),
  ].join("; ");
}
