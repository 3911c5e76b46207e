/**
 * The JSON log's destination (ADR 0067, amended): lines handed over during one turn of the event
 * loop are written together, with one write(2) on the thread at the end of that turn
 * (`setImmediate`), not one a line, and not on libuv's pool. Under load a turn answers many
 * requests, so their access lines cost one system call; a quiet server's line still goes out in
 * the turn it was logged. pino's default destination (SonicBoom, asynchronous) measured the byte
 * length of its whole pending buffer again on every line, a cost that grew with the batch.
 *
 * A descriptor that cannot take more (a full pipe: EAGAIN) keeps the rest for a retry a moment
 * later, in order; past `maxPendingBytes` new lines are dropped and counted, and a line says how
 * many once the descriptor takes lines again. At exit what is pending is written synchronously.
 */
import fs from "node:fs";

export interface LineWriter {
  write(line: string): boolean;
  /** Writes what is pending now, waiting on a full pipe (exit, tests). */
  flushSync(): void;
  /** pino's `logger.flush(cb)`. */
  flush(cb?: (err?: Error) => void): void;
  /** Writes what is pending and stops: later lines are dropped (tests; the descriptor is the caller's). */
  close(): void;
  readonly dropped: number;
}

const RETRY_MS = 2;
const DEFAULT_MAX_PENDING = 32 * 1024 * 1024;

export function lineWriter(fd: number, options: { maxPendingBytes?: number } = {}): LineWriter {
  const maxPending = options.maxPendingBytes ?? DEFAULT_MAX_PENDING;
  let pending: string[] = [];
  let pendingChars = 0;
  /** Bytes of an earlier batch the descriptor has not taken yet (after EAGAIN or a short write). */
  let leftover: Buffer | undefined;
  let scheduled = false;
  let retrying = false;
  let dropped = 0;
  let droppedUnsaid = 0;

  /** Writes as much as the descriptor takes now; false when it would block. */
  function writeOut(wait: boolean): boolean {
    if (!leftover) {
      if (pending.length === 0) return true;
      let text = pending.join("");
      if (droppedUnsaid > 0) {
        text += `${JSON.stringify({ level: 40, time: Date.now(), msg: "log lines dropped: the log's output did not take them", dropped: droppedUnsaid })}\n`;
        droppedUnsaid = 0;
      }
      leftover = Buffer.from(text);
      pending = [];
      pendingChars = 0;
    }
    while (leftover.length > 0) {
      try {
        leftover = leftover.subarray(fs.writeSync(fd, leftover));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EAGAIN") throw err;
        if (!wait) return false;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, RETRY_MS);
      }
    }
    leftover = undefined;
    return true;
  }

  function endOfTurn() {
    scheduled = false;
    if (retrying) return;
    try {
      if (!writeOut(false)) {
        retrying = true;
        setTimeout(() => {
          retrying = false;
          endOfTurn();
        }, RETRY_MS).unref();
      } else if (pending.length > 0) schedule();
    } catch {
      // The log's output is gone (EPIPE, EBADF): stop logging rather than fail requests.
      pending = [];
      leftover = undefined;
      writer.write = () => true;
    }
  }

  function schedule() {
    if (scheduled) return;
    scheduled = true;
    setImmediate(endOfTurn);
  }

  const writer: LineWriter = {
    write(line) {
      if (pendingChars + (leftover?.length ?? 0) > maxPending) {
        dropped++;
        droppedUnsaid++;
        return false;
      }
      pending.push(line);
      pendingChars += line.length;
      schedule();
      return true;
    },
    flushSync() {
      try {
        writeOut(true);
      } catch {
        // Nothing more can be done at exit.
      }
    },
    flush(cb) {
      try {
        writeOut(true);
        cb?.();
      } catch (err) {
        cb?.(err as Error);
      }
    },
    close() {
      writer.flushSync();
      process.off("exit", atExit);
      writer.write = () => false;
    },
    get dropped() {
      return dropped;
    },
  };
  const atExit = () => writer.flushSync();
  process.on("exit", atExit);
  return writer;
}
