import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import { ConfigError } from "./config_error.ts";
import { resolvePaths } from "./paths.ts";

function envOf(vars: Record<string, string>): (name: string) => string | undefined {
  return (name) => vars[name];
}

Deno.test("resolvePaths() puts everything under $HOME/.rienda when RIENDA_HOME is unset", () => {
  const paths = resolvePaths(envOf({ HOME: "/home/ana" }), { cwd: "/work", os: "linux" });
  deepStrictEqual(paths, {
    home: "/home/ana/.rienda",
    configFile: "/home/ana/.rienda/config.yaml",
    configExplicit: false,
    agentsDir: "/home/ana/.rienda/agents",
    toolsDir: "/home/ana/.rienda/tools",
    hooksDir: "/home/ana/.rienda/hooks",
    sessionsDir: "/home/ana/.rienda/sessions",
    credentialsFile: "/home/ana/.rienda/credentials.json",
    trustFile: "/home/ana/.rienda/trust.json",
    compactionPromptFile: "/home/ana/.rienda/COMPACTION.md",
    cacheDir: "/home/ana/.rienda/cache",
    storeDir: "/home/ana/.rienda/store",
    exportsCacheDir: "/home/ana/.rienda/exports-cache",
  });
});

Deno.test("resolvePaths() prefers RIENDA_HOME over HOME", () => {
  const paths = resolvePaths(envOf({ HOME: "/home/ana", RIENDA_HOME: "/srv/rienda" }), {
    cwd: "/work",
    os: "linux",
  });
  strictEqual(paths.home, "/srv/rienda");
  strictEqual(paths.agentsDir, "/srv/rienda/agents");
  strictEqual(paths.configFile, "/srv/rienda/config.yaml");
});

Deno.test("resolvePaths() resolves a relative RIENDA_HOME against the cwd", () => {
  const paths = resolvePaths(envOf({ RIENDA_HOME: "state/../home" }), {
    cwd: "/work",
    os: "linux",
  });
  strictEqual(paths.home, "/work/home");
  strictEqual(paths.sessionsDir, "/work/home/sessions");
});

Deno.test("resolvePaths() treats an empty RIENDA_HOME as unset", () => {
  const paths = resolvePaths(envOf({ RIENDA_HOME: "", HOME: "/home/ana" }), {
    cwd: "/work",
    os: "linux",
  });
  strictEqual(paths.home, "/home/ana/.rienda");
});

Deno.test("resolvePaths() uses USERPROFILE, not HOME, on windows", () => {
  const paths = resolvePaths(envOf({ HOME: "/home/ana", USERPROFILE: "/users/ana" }), {
    cwd: "/work",
    os: "windows",
  });
  strictEqual(paths.home, "/users/ana/.rienda");
});

Deno.test("resolvePaths() throws a ConfigError when no home variable is set", () => {
  throws(() => resolvePaths(envOf({ USERPROFILE: "/users/ana" }), { cwd: "/work", os: "linux" }), {
    name: "ConfigError",
    message:
      "cannot find the rienda home: neither RIENDA_HOME nor HOME is set (set RIENDA_HOME to a directory)",
  });
  throws(() => resolvePaths(envOf({}), { cwd: "/work", os: "linux" }), ConfigError);
});

Deno.test("resolvePaths() takes --config over RIENDA_CONFIG over the home's config.yaml", () => {
  const env = envOf({ HOME: "/home/ana", RIENDA_CONFIG: "/etc/rienda.yaml" });
  const fromFlag = resolvePaths(env, { cwd: "/work", os: "linux", config: "/tmp/flag.yaml" });
  strictEqual(fromFlag.configFile, "/tmp/flag.yaml");
  strictEqual(fromFlag.configExplicit, true);
  const fromEnv = resolvePaths(env, { cwd: "/work", os: "linux" });
  strictEqual(fromEnv.configFile, "/etc/rienda.yaml");
  strictEqual(fromEnv.configExplicit, true);
  strictEqual(fromEnv.home, "/home/ana/.rienda");
});

Deno.test("resolvePaths() resolves relative --config and RIENDA_CONFIG against the cwd", () => {
  const env = envOf({ HOME: "/home/ana", RIENDA_CONFIG: "conf/r.yaml" });
  strictEqual(resolvePaths(env, { cwd: "/work", os: "linux" }).configFile, "/work/conf/r.yaml");
  strictEqual(
    resolvePaths(env, { cwd: "/work", os: "linux", config: "./c.yaml" }).configFile,
    "/work/c.yaml",
  );
});

Deno.test("resolvePaths() defaults to the process cwd for relative paths", () => {
  const paths = resolvePaths(envOf({ RIENDA_HOME: "rel-home" }), { os: "linux" });
  strictEqual(paths.home, `${Deno.cwd()}/rel-home`);
});
