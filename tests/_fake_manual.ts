import { startFakeProvider } from "./harness/fake_provider.ts";
const provider = await startFakeProvider([
  { toolCalls: [{ name: "write", arguments: { path: "/tmp/manual/outside.txt", content: "x\n" } }] },
  { text: "I wrote **the file** outside.\n\n- one\n- two" },
  { text: "second answer" },
]);
await Deno.writeTextFile("/tmp/manual/url", provider.url);
await new Promise(() => {});
