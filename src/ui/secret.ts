/**
 * Reading a secret (an API key) from the terminal without echo, or a line from
 * piped standard input.
 *
 * @module
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Reads one line; on a terminal, prints `prompt` to stderr and hides the input. Null at end of input. */
export async function readSecretLine(prompt: string): Promise<string | null> {
  if (!Deno.stdin.isTerminal()) {
    const text = await new Response(Deno.stdin.readable).text();
    const line = text.split(/\r?\n/)[0] ?? "";
    return text === "" ? null : line;
  }
  Deno.stderr.writeSync(encoder.encode(prompt));
  Deno.stdin.setRaw(true);
  try {
    let line = "";
    const buffer = new Uint8Array(64);
    for (;;) {
      const n = await Deno.stdin.read(buffer);
      if (n === null) return line === "" ? null : line;
      for (const char of decoder.decode(buffer.subarray(0, n))) {
        if (char === "\r" || char === "\n") return line;
        if (char === "\x03") throw new DOMException("interrupted", "AbortError");
        if (char === "\x7f" || char === "\b") line = line.slice(0, -1);
        else if (char >= " ") line += char;
      }
    }
  } finally {
    Deno.stdin.setRaw(false);
    Deno.stderr.writeSync(encoder.encode("\n"));
  }
}
