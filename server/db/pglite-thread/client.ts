/**
 * The embedded database on a thread of its own (ADR 0068), behind the part of PGlite's interface
 * that Drizzle and our code use: `query`, `exec`, `transaction`, `close`.
 *
 * PGlite runs one statement at a time. A transaction holds it from BEGIN to COMMIT: while one is
 * open, other calls wait here (as PGlite's own lock makes them wait in process), so no statement
 * of another request lands inside it. Outside a transaction, calls are sent at once and the
 * thread runs them in order.
 */
import { Worker } from "node:worker_threads";
import { workerEntry } from "../../lib/worker-entry.js";
import type { FromThread, OpenOptions, ThreadError, ThreadResults, ToThread } from "./protocol.js";

/** A message without its id (the client numbers them). */
type Call = ToThread extends infer M ? (M extends ToThread ? Omit<M, "id"> : never) : never;

interface QueryOptions {
  rowMode?: "object" | "array";
  /** Only parsers that leave the text as it is (Drizzle's, for dates and intervals) can be honoured here. */
  parsers?: Record<number, (value: string, typeId: number) => unknown>;
}

/** What a transaction's callback gets: the same calls, inside the transaction. */
export interface ThreadTransaction {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<ThreadResults & { rows: T[] }>;
  exec(text: string): Promise<ThreadResults[]>;
  rollback(): Promise<void>;
  readonly closed: boolean;
}

/** A database error rebuilt on this thread: PostgreSQL's fields (`code`, `constraint`…) as PGlite gives them. */
function rebuild(error: ThreadError): Error {
  return Object.assign(new Error(error.message), error.fields);
}

const isIdentity = (parse: (value: string, typeId: number) => unknown) => parse("2026-01-01 00:00:00+00", 0) === "2026-01-01 00:00:00+00";

export class PgliteThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(err: Error): void }>();
  private nextId = 1;
  private failure: Error | undefined;
  /** Resolves when the open transaction ends (undefined: none is open). */
  private transactionEnd: Promise<void> | undefined;
  /** Calls sent and not answered yet. */
  private calls = 0;
  /** Calls waiting for the open transaction's end. */
  private callsWaiting = 0;

  private constructor() {
    const { url, execArgv } = workerEntry(import.meta, "./worker.ts", "pglite-worker.js");
    this.worker = new Worker(url, { execArgv, stdout: false, stderr: false });
    // Held by the process only while a call is out: an idle database does not keep it alive.
    this.worker.unref();
    this.worker.on("message", (message: FromThread) => this.receive(message));
    this.worker.on("error", (err) => this.fail(new Error(`the embedded database's thread failed: ${err.message}`, { cause: err })));
    this.worker.on("exit", (code) => this.fail(new Error(`the embedded database's thread exited (${code})`)));
  }

  static async open(options: OpenOptions): Promise<PgliteThread> {
    const thread = new PgliteThread();
    try {
      await thread.send({ type: "open", options });
    } catch (err) {
      await thread.worker.terminate();
      throw err;
    }
    return thread;
  }

  // Each call looks for an open transaction and sends in the same turn: between an `await` and
  // the send, another call could open one, and this call would land inside it.
  async query<T>(text: string, params?: unknown[], options: QueryOptions = {}): Promise<ThreadResults & { rows: T[] }> {
    while (this.transactionEnd) await this.transactionEnded();
    return this.sendQuery<T>(text, params, options);
  }

  async exec(text: string): Promise<ThreadResults[]> {
    while (this.transactionEnd) await this.transactionEnded();
    return (await this.send({ type: "exec", text })) as ThreadResults[];
  }

  /** For the pool gauge (ADR 0044): busy while a call is out or a transaction open; the calls behind it. */
  load(): { busy: boolean; waiting: number } {
    if (this.transactionEnd) return { busy: true, waiting: this.callsWaiting };
    return { busy: this.calls > 0, waiting: Math.max(0, this.calls - 1) + this.callsWaiting };
  }

  /** BEGIN, the callback's calls, COMMIT; ROLLBACK when it throws (or calls `rollback`). */
  async transaction<T>(callback: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    while (this.transactionEnd) await this.transactionEnded();
    let end!: () => void;
    this.transactionEnd = new Promise<void>((resolve) => (end = resolve));
    let closed = false;
    const open = () => {
      if (closed) throw new Error("the transaction is closed");
    };
    const tx: ThreadTransaction = {
      query: async <R>(text: string, params?: unknown[], options?: QueryOptions) => (open(), this.sendQuery<R>(text, params, options)),
      exec: async (text: string) => (open(), (await this.send({ type: "exec", text })) as ThreadResults[]),
      rollback: async () => {
        open();
        closed = true;
        await this.send({ type: "exec", text: "rollback" });
      },
      get closed() {
        return closed;
      },
    };
    try {
      await this.send({ type: "exec", text: "begin" });
      try {
        const result = await callback(tx);
        if (!closed) await this.send({ type: "exec", text: "commit" });
        return result;
      } catch (err) {
        if (!closed) await this.send({ type: "exec", text: "rollback" }).catch(() => undefined);
        throw err;
      } finally {
        closed = true;
      }
    } finally {
      this.transactionEnd = undefined;
      end();
    }
  }

  async close(): Promise<void> {
    if (this.failure) return;
    try {
      await this.send({ type: "close" });
    } finally {
      this.failure = new Error("the embedded database is closed");
      await this.worker.terminate();
    }
  }

  /** Waits for the open transaction's end, counted for the gauge (the caller looks again: another may have opened one). */
  private async transactionEnded(): Promise<void> {
    this.callsWaiting++;
    try {
      await this.transactionEnd;
    } finally {
      this.callsWaiting--;
    }
  }

  private sendQuery<T>(text: string, params: unknown[] | undefined, options: QueryOptions = {}): Promise<ThreadResults & { rows: T[] }> {
    const parsers = Object.entries(options.parsers ?? {});
    if (parsers.some(([, parse]) => !isIdentity(parse))) throw new Error("the embedded database's thread takes no parsers but those that keep the text");
    const rawTypes = parsers.map(([oid]) => Number(oid));
    return this.send({ type: "query", text, params, rowMode: options.rowMode, rawTypes }) as Promise<ThreadResults & { rows: T[] }>;
  }

  private send(message: Call): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    if (this.pending.size === 0) this.worker.ref();
    this.calls++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...message } as ToThread);
    });
  }

  private receive(message: FromThread): void {
    const call = this.pending.get(message.id);
    if (!call) return;
    this.settled(message.id);
    if (message.ok) call.resolve(message.value);
    else call.reject(rebuild(message.error));
  }

  private settled(id: number): void {
    this.pending.delete(id);
    this.calls--;
    if (this.pending.size === 0) this.worker.unref();
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const [id, call] of [...this.pending]) {
      this.settled(id);
      call.reject(err);
    }
  }
}
