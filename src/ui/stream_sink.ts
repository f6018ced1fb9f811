/**
 * The process's stdout and stderr as {@link TextSink}s. A terminal is
 * written synchronously (it is always read, and the chat's terminal reset
 * must reach it even on a crash). A pipe or a file is written
 * asynchronously through a queue: a reader that never reads (a script that
 * pipes stderr and reads only stdout) leaves the event loop free, so signals
 * still stop rienda. The queued bytes are the output backlog of
 * `host/output_steps.ts`, which makes loops forwarding command output wait while
 * it is large: a slow reader slows the command, as a blocking write would.
 *
 * @module
 */

import { changeOutputBacklog } from "../host/output_steps.ts";
import type { TextSink } from "./io.ts";

/** What a sink needs of `Deno.stdout` / `Deno.stderr`. */
export interface OutputFile {
  writeSync(p: Uint8Array): number;
  write(p: Uint8Array): Promise<number>;
  isTerminal(): boolean;
}

/** A sink over a stream of the process. */
export interface StreamSink extends TextSink {
  /**
   * Resolves once everything written so far reached the stream (at once for
   * a terminal); rejects with the error that stopped writing, other than a
   * closed reader.
   */
  drained(): Promise<void>;
  /**
   * Drops the writes still queued (not the one being written, so lines
   * stay whole) and returns their size in bytes: once a run is interrupted,
   * output nobody read yet must not hold up the stop.
   */
  discardQueued(): number;
}

const encoder = new TextEncoder();
/** The most bytes handed to one asynchronous write. */
const MAX_WRITE_BYTES = 64 * 1024;

/**
 * A sink over `file`. A stream that can no longer be written drops this and
 * later writes silently: a closed pipe (e.g. `| head`) or a closed terminal
 * (EIO after SIGHUP), so a run still winds down and keeps its session.
 */
export function streamSink(file: OutputFile): StreamSink {
  return file.isTerminal() ? terminalSink(file) : queuedSink(file);
}

function terminalSink(file: OutputFile): StreamSink {
  let broken = false;
  return {
    isTerminal: true,
    write(text) {
      if (broken || text === "") return;
      let bytes = encoder.encode(text);
      try {
        while (bytes.length > 0) bytes = bytes.subarray(file.writeSync(bytes));
      } catch (error) {
        if (isReaderGone(error)) broken = true;
        else throw error;
      }
    },
    drained: () => Promise.resolve(),
    discardQueued: () => 0,
  };
}

function queuedSink(file: OutputFile): StreamSink {
  const queue: Uint8Array[] = [];
  let queuedBytes = 0;
  let writing: Promise<void> | null = null;
  let stopped = false;
  let failure: unknown = undefined;

  const dequeue = (size: number) => {
    queuedBytes -= size;
    changeOutputBacklog(-size);
  };
  const nextBlock = (): Uint8Array => {
    if (queue.length === 1 || (queue[0]?.length ?? 0) >= MAX_WRITE_BYTES) return queue.shift()!;
    const parts: Uint8Array[] = [];
    let size = 0;
    while (queue.length > 0 && size + queue[0]!.length <= MAX_WRITE_BYTES) {
      const part = queue.shift()!;
      parts.push(part);
      size += part.length;
    }
    const block = new Uint8Array(size);
    let offset = 0;
    for (const part of parts) {
      block.set(part, offset);
      offset += part.length;
    }
    return block;
  };
  const writeAll = async () => {
    try {
      while (queue.length > 0) {
        let block = nextBlock();
        while (block.length > 0) {
          const written = await file.write(block);
          dequeue(written);
          block = block.subarray(written);
        }
      }
    } catch (error) {
      stopped = true;
      if (!isReaderGone(error)) failure = error;
      queue.length = 0;
      dequeue(queuedBytes);
    } finally {
      writing = null;
    }
  };
  return {
    isTerminal: false,
    write(text) {
      if (stopped || text === "") return;
      const bytes = encoder.encode(text);
      queue.push(bytes);
      queuedBytes += bytes.length;
      changeOutputBacklog(bytes.length);
      writing ??= writeAll();
    },
    async drained() {
      while (writing !== null) await writing;
      if (failure !== undefined) throw failure;
    },
    discardQueued() {
      const size = queue.reduce((sum, part) => sum + part.length, 0);
      queue.length = 0;
      dequeue(size);
      return size;
    },
  };
}

/** Whether a write failed because nobody reads any more: a closed pipe, or a closed terminal (EIO). */
function isReaderGone(error: unknown): boolean {
  return error instanceof Deno.errors.BrokenPipe ||
    (error instanceof Error && "code" in error && error.code === "EIO");
}
