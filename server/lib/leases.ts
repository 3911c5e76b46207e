import type pg from "pg";
import type { DatabaseHandle, DbLogger } from "../db/types.js";

/**
 * The key of the session advisory lock behind the leader lease ("leader" in ASCII). The chart
 * rebuild's transaction lock and the migration lock use other keys.
 */
export const LEADER_LOCK_KEY = 0x6c65_6164_6572;

/** How long a check of the held connection (or taking the lock) may take before it counts as lost. */
export const LEASE_QUERY_TIMEOUT_MS = 5_000;

/**
 * "This instance runs the work that must run once across instances" (ADR 0040). Background
 * timers tick on every instance and ask `check()` before singleton work; only the holder goes on.
 */
export interface LeaderLease {
  /**
   * Whether this instance holds the lease now. A holder checks that its connection still
   * answers; anyone else (or a holder that lost it) tries to take it. Never throws: a database
   * that does not answer means "not the leader" until a later check succeeds.
   */
  check(): Promise<boolean>;
  /** What the last check found (no database round trip). */
  readonly held: boolean;
  /** Gives the lease up (closes its connection); later checks answer false. */
  close(): Promise<void>;
}

/** PGlite: one process owns the database, so it always leads. */
export function soleLease(): LeaderLease {
  let closed = false;
  return {
    check: async () => !closed,
    get held() {
      return !closed;
    },
    close: async () => {
      closed = true;
    },
  };
}

/**
 * A holder whose machine vanished (no FIN, no RST) must not keep the lock for the kernel's
 * two-hour keep-alive default: PostgreSQL probes the lease's session after 10 s of silence and
 * ends it after three unanswered probes 5 s apart (ignored on a Unix socket, which needs none).
 */
async function keepAliveProbes(client: pg.Client): Promise<void> {
  await client.query("set tcp_keepalives_idle = 10; set tcp_keepalives_interval = 5; set tcp_keepalives_count = 3");
}

/**
 * PostgreSQL: a session-level `pg_try_advisory_lock` held on a connection of its own (never
 * one of the pool's). When the instance dies, or its connection breaks, PostgreSQL ends the
 * session and frees the lock; the next check of another instance takes it.
 */
export function advisoryLease({
  connect,
  logger,
  key = LEADER_LOCK_KEY,
}: {
  /** A new, unconnected client outside the pool (DatabaseHandle.dedicatedConnection). */
  connect: () => pg.Client;
  logger: Pick<DbLogger, "info" | "warn">;
  key?: number;
}): LeaderLease {
  let client: pg.Client | undefined;
  let held = false;
  let closed = false;
  let checking: Promise<boolean> | undefined;
  /**
   * A holder that lost its connection sits out its next check: an instance that is alive and
   * connected (a survivor) takes the lease first, instead of racing the one that just failed.
   */
  let sitOut = false;

  const drop = (reason: string, err?: unknown) => {
    const lost = client;
    client = undefined;
    if (held) {
      logger.warn({ err: err instanceof Error ? err.message : err, reason }, "leader lease lost");
      sitOut = true;
    }
    held = false;
    // A broken connection may never answer `end()`: don't wait for it.
    lost?.end().catch(() => undefined);
  };

  const open = async (): Promise<pg.Client> => {
    const fresh = connect();
    // A connection that breaks while idle emits 'error': unhandled, it would end the process.
    fresh.on("error", (err) => {
      if (client === fresh) drop("connection error", err);
    });
    fresh.on("end", () => {
      if (client === fresh) drop("connection ended");
    });
    try {
      await fresh.connect();
      await keepAliveProbes(fresh);
    } catch (err) {
      fresh.end().catch(() => undefined);
      throw err;
    }
    return fresh;
  };

  const attempt = async (): Promise<boolean> => {
    if (closed) return false;
    try {
      if (client && held) {
        await client.query("select 1");
        return true;
      }
      if (sitOut) {
        sitOut = false;
        return false;
      }
      client ??= await open();
      const { rows } = await client.query<{ locked: boolean }>("select pg_try_advisory_lock($1::bigint) as locked", [key]);
      held = rows[0]?.locked === true;
      if (held) logger.info({ key }, "leader lease taken");
      return held;
    } catch (err) {
      drop("check failed", err);
      return false;
    } finally {
      // closed while the check ran: give back what it may just have taken.
      if (closed) drop("closed");
    }
  };

  return {
    check() {
      checking ??= attempt().finally(() => (checking = undefined));
      return checking;
    },
    get held() {
      return held;
    },
    async close() {
      closed = true;
      await checking;
      const last = client;
      client = undefined;
      held = false;
      await last?.end().catch(() => undefined);
    },
  };
}

/** The lease for this database: advisory on PostgreSQL, always held on PGlite. */
export function leaderLease(database: Pick<DatabaseHandle, "engine" | "dedicatedConnection">, logger: Pick<DbLogger, "info" | "warn">): LeaderLease {
  if (database.engine === "pglite" || !database.dedicatedConnection) return soleLease();
  return advisoryLease({ connect: database.dedicatedConnection, logger });
}

/** `work` for a timer that ticks on every instance: runs it only on the lease holder. */
export function onlyOnLeader<T>(lease: Pick<LeaderLease, "check">, work: () => Promise<T>): () => Promise<T | undefined> {
  return async () => ((await lease.check()) ? work() : undefined);
}
