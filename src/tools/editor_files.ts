/**
 * The files of an editor that drives rienda (ACP `fs/read_text_file` and
 * `fs/write_text_file`): when a run has them, `read`, `write` and `edit` read
 * and write the paths it {@link EditorFiles.handles} through the editor, so
 * unsaved buffers are what the model sees and changes. Every check of the
 * tools (approval, rienda's own files, sizes, binary files) still runs
 * first, on the disk's view of the path; only the text goes through the
 * editor.
 *
 * @module
 */

/** Text files as an editor holds them. */
export interface EditorFiles {
  /** Whether the editor holds `path` (an absolute path the tool resolved). */
  handles(path: string): Promise<boolean>;
  /** The text of `path` as the editor has it (its buffer, else the disk's). */
  readText(path: string, signal: AbortSignal): Promise<string>;
  /** Gives `path` the text `text` through the editor. */
  writeText(path: string, text: string, signal: AbortSignal): Promise<void>;
}

/** The files `read`, `write` and `edit` use: the editor's for the paths it handles, else none. */
export async function editorFilesFor(
  files: EditorFiles | undefined,
  path: string,
): Promise<EditorFiles | null> {
  return files !== undefined && await files.handles(path) ? files : null;
}
