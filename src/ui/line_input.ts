/**
 * Reading one line from a terminal in its normal (cooked) mode, where the
 * terminal itself echoes and edits the line.
 *
 * @module
 */

const decoder = new TextDecoder();
let rest = "";

/** The next line of standard input without its newline; null at end of input. */
export async function readLine(): Promise<string | null> {
  const buffer = new Uint8Array(1024);
  for (;;) {
    const end = rest.indexOf("\n");
    if (end !== -1) {
      const line = rest.slice(0, end).replace(/\r$/, "");
      rest = rest.slice(end + 1);
      return line;
    }
    const count = await Deno.stdin.read(buffer);
    if (count === null) {
      const last = rest;
      rest = "";
      return last === "" ? null : last;
    }
    rest += decoder.decode(buffer.subarray(0, count), { stream: true });
  }
}
