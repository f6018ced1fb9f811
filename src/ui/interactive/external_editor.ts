/**
 * Ctrl+G: the prompt in `$VISUAL` or `$EDITOR` (default `vi`), through `sh`
 * (the one program the permission set may run), in a private temp file.
 *
 * @module
 */

/** Edits `text` in the person's editor; resolves to the new text, or null when it failed. */
export async function editExternally(
  text: string,
  env: (name: string) => string | undefined,
): Promise<string | null> {
  const file = await Deno.makeTempFile({ prefix: "rienda-prompt-", suffix: ".md" });
  try {
    await Deno.writeTextFile(file, text);
    const editor = env("VISUAL") || env("EDITOR") || "vi";
    const status = await new Deno.Command("sh", {
      args: ["-c", `${editor} "$1"`, "sh", file],
      stdin: "inherit",
      stdout: "inherit",
      stderr: "inherit",
    }).spawn().status;
    if (!status.success) return null;
    return (await Deno.readTextFile(file)).replace(/\n$/, "");
  } catch {
    return null;
  } finally {
    await Deno.remove(file).catch(() => {});
  }
}
