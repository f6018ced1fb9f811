#!/usr/bin/env node
// The `rienda` command of the npm package: runs rienda's bundled program on the
// Deno runtime of the `deno` npm package, with rienda's permission set
// (launch.json, written by `deno task npm-pack`), and exits as it exits.
"use strict";

const { spawn } = require("node:child_process");
const path = require("node:path");
const { permissions } = require("./launch.json");

let deno;
try {
  deno = require("deno/install_api.cjs").runInstall();
} catch (error) {
  const reason = error instanceof Error ? error.message : String(error);
  process.stderr.write(
    `rienda: the Deno runtime of the deno npm package is missing (${reason}): ` +
      "reinstall with npm install -g rienda\n",
  );
  process.exit(1);
}

const main = path.join(__dirname, "..", "bundle", "main.js");
const child = spawn(
  deno,
  ["run", "-q", "--no-config", ...permissions, main, ...process.argv.slice(2)],
  {
    stdio: "inherit",
    // Deno's own "a new release is available" notice must not reach rienda's stderr.
    env: { ...process.env, DENO_NO_UPDATE_CHECK: "1" },
  },
);

// A terminal's Ctrl+C reaches both processes; rienda counts the two as one press.
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"];
const forward = (signal) => child.kill(signal);
for (const signal of SIGNALS) process.on(signal, forward);

child.on("error", (error) => {
  process.stderr.write(`rienda: cannot start ${deno}: ${error.message}\n`);
  process.exit(1);
});
child.on("exit", (code, signal) => {
  for (const name of SIGNALS) process.off(name, forward);
  if (signal !== null) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});
