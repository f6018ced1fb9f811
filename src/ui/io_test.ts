import { strictEqual } from "node:assert/strict";
import { SecretSet } from "../secrets/secrets.ts";
import { redactingSink, type TextSink } from "./io.ts";

function bufferSink(): TextSink & { text: string } {
  return {
    text: "",
    isTerminal: false,
    write(text) {
      this.text += text;
    },
  };
}

Deno.test("redactingSink() hides a key split across writes and writes the rest in order", () => {
  const secrets = new SecretSet();
  secrets.remember("sk-sink-dddddddddddddddddddd4444");
  const target = bufferSink();
  const sink = redactingSink(target, secrets);
  sink.write("key: sk-sink-dddd");
  sink.write("dddddddddddddddd4444 and sk");
  strictEqual(target.text, "key: sk-…4444 and ");
  sink.write("y is blue\n");
  strictEqual(target.text, "key: sk-…4444 and sky is blue\n");
  sink.write("ends with s");
  sink.flush();
  strictEqual(target.text, "key: sk-…4444 and sky is blue\nends with s");
});
