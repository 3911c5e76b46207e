import { PgliteThread } from "./pglite-thread/client.js";
import type { DatabaseHandle } from "./types.js";

/**
 * How busy the database's connections are, the same four numbers on both engines (ADR 0044):
 * - PostgreSQL: node-postgres's pool (`totalCount`, `idleCount`, `waitingCount`, `options.max`).
 * - PGlite: one engine that runs one statement or transaction at a time; `waiting` is the calls
 *   queued behind the one running (in process: counted around PGlite's own queue,
 *   `_runExclusiveTransaction`, which `query`, `exec` and `transaction` all pass through; on its
 *   own thread: the calls sent to it and not yet answered).
 */
export interface PoolStats {
  /** Open connections (PGlite: 1). */
  size: number;
  /** Of those, doing nothing. */
  idle: number;
  /** Calls waiting for a connection. */
  waiting: number;
  /** The most connections the pool opens (PGlite: 1). */
  max: number;
}

interface PgPoolLike {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options?: { max?: number };
}

interface PgliteLike {
  _runExclusiveTransaction?: <T>(fn: () => Promise<T>) => Promise<T>;
}

const pgliteCounters = new WeakMap<object, { pending: number }>();

/** Counts the calls queued in PGlite (once per client); undefined when PGlite's queue moved. */
function pglitePending(client: PgliteLike): { pending: number } | undefined {
  let counter = pgliteCounters.get(client);
  if (counter) return counter;
  const original = client._runExclusiveTransaction;
  if (typeof original !== "function") return undefined;
  const kept = { pending: 0 };
  counter = kept;
  client._runExclusiveTransaction = function <T>(this: unknown, fn: () => Promise<T>): Promise<T> {
    kept.pending++;
    return (original.call(this, fn) as Promise<T>).finally(() => kept.pending--);
  };
  pgliteCounters.set(client, counter);
  return counter;
}

/** A reader of the handle's pool numbers (starts PGlite's count at once), or undefined. */
export function poolStatsOf(handle: DatabaseHandle): (() => PoolStats) | undefined {
  // Both Drizzle drivers keep their client as `$client` (node-postgres: the Pool; PGlite: itself).
  const client = (handle.db as unknown as { $client?: unknown }).$client;
  if (!client || typeof client !== "object") return undefined;
  if (handle.engine === "postgres") {
    const pool = client as PgPoolLike;
    if (typeof pool.totalCount !== "number") return undefined;
    return () => ({ size: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options?.max ?? 10 });
  }
  // On its own thread (ADR 0068): the calls sent to it and not answered yet.
  if (client instanceof PgliteThread) {
    return () => {
      const { busy, waiting } = client.load();
      return { size: 1, idle: busy ? 0 : 1, waiting, max: 1 };
    };
  }
  const counter = pglitePending(client as PgliteLike);
  if (!counter) return undefined;
  return () => ({ size: 1, idle: counter.pending > 0 ? 0 : 1, waiting: Math.max(0, counter.pending - 1), max: 1 });
}
