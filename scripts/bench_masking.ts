/**
 * The cost of masking secrets for `deno task bench` (docs/security.md,
 * "What is masked"): `SecretSet.mask` over 256 KiB texts of several kinds
 * (source code, a log, JSON, one long base64 line, a text holding keys) with
 * ten known secrets, as every tool result of that size pays it, and the
 * whole CLI run of one shell call that returns 256 KiB (`cat`).
 *
 * Run alone: `deno run -A scripts/bench_masking.ts`.
 *
 * @module
 */

import { SecretSet } from "../src/secrets/secrets.ts";
import { line, timeEach } from "./bench_extensions.ts";
import type { Scenario } from "./bench.ts";
import { CHECKOUT_DIR } from "../tests/harness/rienda.ts";

const SIZE = 256 * 1024;
const CALLS = Number(Deno.env.get("BENCH_MASKS") ?? "50");

/** Ten secrets as a run knows them: config and stored keys, key variables, tokens. */
function knownSecrets(): SecretSet {
  const secrets = new SecretSet();
  for (let index = 0; index < 10; index++) {
    const random = crypto.randomUUID().replaceAll("-", "");
    secrets.remember(index % 3 === 0 ? `sk-proj-${random}${random}` : `ghp_${random}${index}`);
  }
  secrets.remember("hunter22hunter");
  return secrets;
}

/** `text` repeated to {@link SIZE} characters. */
function filled(text: string): string {
  return text.repeat(Math.ceil(SIZE / text.length)).slice(0, SIZE);
}

async function sourceCode(): Promise<string> {
  const parts: string[] = [];
  for (const dir of ["src/tools", "src/cli", "src/engine"]) {
    for await (const entry of Deno.readDir(`${CHECKOUT_DIR}/${dir}`)) {
      if (entry.isFile) parts.push(await Deno.readTextFile(`${CHECKOUT_DIR}/${dir}/${entry.name}`));
    }
  }
  return filled(parts.join("\n"));
}

/** The texts measured, by name. */
async function texts(): Promise<[string, string][]> {
  const bytes = new Uint8Array(SIZE * 3 / 4);
  for (let at = 0; at < bytes.length; at += 65536) {
    crypto.getRandomValues(bytes.subarray(at, Math.min(at + 65536, bytes.length)));
  }
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return [
    ["source code", await sourceCode()],
    [
      "a build log",
      filled(
        "2026-12-01T10:00:00Z INFO compiled src/main.ts in 12 ms (cache hit, 3 deps)\n" +
          "\x1b[33mwarning\x1b[0m: unused variable `token` at line 42, column 7\n",
      ),
    ],
    ["JSON", filled(JSON.stringify({ name: "pkg", version: "1.2.3", integrity: "sha512-abc" }))],
    ["one base64 line", btoa(binary).slice(0, SIZE)],
    [
      "a log holding keys",
      filled(
        "GET https://api.example.com/v1?access_token=Zq81xWc0Rk27 Authorization: Bearer " +
          "Wq4Er7Ty1Ui9Op3As6Df2Gh8 ghp_Tb6Yc1Ud8Ve3Wf5Xg0Yh2Zi7Aj4Bk9Cl3Dm\n",
      ),
    ],
  ];
}

/** Lines with the median and p95 time of masking each text. */
export async function measureMasking(): Promise<string[]> {
  const secrets = knownSecrets();
  const lines: string[] = [];
  for (const [name, text] of await texts()) {
    await timeEach(5, () => Promise.resolve(secrets.mask(text)));
    const samples = await timeEach(CALLS, () => Promise.resolve(secrets.mask(text)));
    // The fastest run is the cost on a free core; the median also shows what a busy machine adds.
    lines.push(
      `${line(`mask 256 KiB: ${name}`, samples)}  min ${
        samples.reduce((a, b) => Math.min(a, b)).toFixed(3)
      } ms`,
    );
  }
  return lines;
}

/** One shell call whose result is 256 KiB of source code: the whole run, masking included. */
export const MASKING_SCENARIO: Scenario = {
  name: "one 256 KiB shell result",
  turns: () => [
    { toolCalls: [{ name: "shell", arguments: { command: "cat big.txt" } }] },
    { text: "done" },
  ],
  args: ["run", "-a", "coder", "-p", "go"],
  setup: async (env) => {
    await env.writeFile("workspace/big.txt", await sourceCode());
  },
};

if (import.meta.main) {
  for (const text of await measureMasking()) {
    Deno.stdout.writeSync(new TextEncoder().encode(`${text}\n`));
  }
}
