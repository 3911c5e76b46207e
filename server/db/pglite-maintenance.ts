import type { Server } from "node:http";
import { sql } from "drizzle-orm";
import { selectRows } from "./sql.js";
import type { AppDatabase, DbLogger } from "./types.js";

/**
 * VACUUM (ANALYZE) for the embedded database (ADR 0042). PGlite is PostgreSQL without its
 * background workers: no autovacuum, so dead rows of updated counters and deleted rows pile up,
 * the visibility map goes stale (index-only scans turn into heap reads) and the planner's
 * statistics stay as the seed left them. Every PGLITE_VACUUM_INTERVAL_MS this runs table by table,
 * each statement at a quiet moment (no request for a while), or after waiting long enough anyway.
 */
export interface VacuumReport {
  ms: number;
  /** The longest single statement: the most a request waited behind maintenance. */
  longest: { statement: string; ms: number };
  tables: number;
}

/**
 * VACUUM then ANALYZE of every table, one statement at a time. PGlite runs a statement inside
 * the JavaScript thread: while it runs, nothing else in the process does, not even accepting a
 * connection. Between statements it yields to the event loop (a macrotask, not just a promise
 * turn), so requests that arrived meanwhile go first; the two halves of VACUUM (ANALYZE) run as
 * two statements because ANALYZE's sample is the longer one (0.7 s of 1.1 s for the demo's
 * play_events).
 */
export async function vacuumAnalyze(db: AppDatabase, { beforeEach }: { beforeEach?: () => Promise<void> } = {}): Promise<VacuumReport> {
  // Raw: a catalog view (pg_stat_user_tables), not the schema's.
  const tables = await selectRows(
    db,
    { schema: sql<string>`schemaname`, table: sql<string>`relname`, name: sql<string>`format('%I.%I', schemaname, relname)` },
    (list) => sql`select ${list} from pg_stat_user_tables order by relname`,
  );
  const t0 = Date.now();
  let longest = { statement: "", ms: 0 };
  for (const { schema, table, name } of tables) {
    const target = sql`${sql.identifier(schema)}.${sql.identifier(table)}`;
    for (const [statement, query] of [
      [`vacuum ${name}`, sql`vacuum ${target}`],
      [`analyze ${name}`, sql`analyze ${target}`],
    ] as const) {
      await new Promise((resolve) => setImmediate(resolve));
      await beforeEach?.();
      const t1 = Date.now();
      await db.execute(query);
      const ms = Date.now() - t1;
      if (ms >= longest.ms) longest = { statement, ms };
    }
  }
  return { ms: Date.now() - t0, longest, tables: tables.length };
}

/** When the server last received a request: maintenance waits for a pause in the traffic. */
export function lastRequestTracker(server: Server): () => number {
  let last = 0;
  server.on("request", () => (last = Date.now()));
  return () => last;
}

export interface MaintenanceSchedule {
  /** Resolves once the current run (if any) has finished. */
  stop(): Promise<void>;
}

export function schedulePgliteMaintenance({
  db,
  intervalMs,
  logger,
  lastRequestAt = () => 0,
  quietMs = 2_000,
  maxWaitMs = 10 * 60_000,
  firstRunMs = Math.min(intervalMs, 10 * 60_000),
}: {
  db: AppDatabase;
  intervalMs: number;
  logger: DbLogger;
  lastRequestAt?: () => number;
  /** A quiet moment: no request for this long. */
  quietMs?: number;
  /** Past this, a table is vacuumed even without a pause (a busy site still needs it). */
  maxWaitMs?: number;
  /** The first run, after start (a site restarted often would otherwise never get one). */
  firstRunMs?: number;
}): MaintenanceSchedule {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;

  const quietMoment = async () => {
    const since = Date.now();
    while (!stopped && Date.now() - lastRequestAt() < quietMs && Date.now() - since < maxWaitMs) {
      const left = maxWaitMs - (Date.now() - since);
      await new Promise((r) => setTimeout(r, Math.max(1, Math.min(quietMs / 4, 250, left))).unref());
    }
    if (stopped) throw new Error("maintenance stopped"); // shutting down: leave the other tables
  };
  const run = async () => {
    try {
      const report = await vacuumAnalyze(db, { beforeEach: quietMoment });
      logger.info({ ...report }, "vacuum analyze of the embedded database");
    } catch (err) {
      if (!stopped) logger.warn({ err: (err as Error).message }, "vacuum analyze failed; next try at the next interval");
    }
  };
  const next = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = run().then(() => next(intervalMs));
    }, ms);
    timer.unref();
  };
  next(firstRunMs);
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
