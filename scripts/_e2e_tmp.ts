import { measureScenario } from "./bench.ts";
const parts: string[] = [];
for (const dir of ["src/tools", "src/cli", "src/engine"]) for (const e of Deno.readDirSync(dir)) if (e.isFile) parts.push(Deno.readTextFileSync(`${dir}/${e.name}`));
const big = parts.join("\n").repeat(3).slice(0, 256 * 1024 - 100);
const scenario = {
  name: Deno.args[0] ?? "x",
  turns: () => [{ toolCalls: [{ name: "shell", arguments: { command: "cat big.txt" } }] }, { text: "done" }],
  args: ["run", "-a", "coder", "-p", "go"],
  setup: async (env: { writeFile(p: string, t: string): Promise<string> }) => { await env.writeFile("workspace/big.txt", big); },
};
const small = { ...scenario, name: `${scenario.name} (echo)`, turns: () => [{ toolCalls: [{ name: "shell", arguments: { command: "echo hi" } }] }, { text: "done" }] };
console.log((await measureScenario(scenario)).line);
console.log((await measureScenario(small)).line);
