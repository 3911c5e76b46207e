import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureLogger, createTestDatabase, testEngines } from "../testing/test-db.js";
import { schedulePgliteMaintenance, vacuumAnalyze } from "./pglite-maintenance.js";
import { queryRows } from "./sql.js";
import type { DatabaseHandle } from "./types.js";

/** Statistics of the table, as autovacuum would have left them (PGlite has none: ADR 0042). */
async function stats(handle: DatabaseHandle, table: string) {
  const [row] = await queryRows<{ vacuumed: boolean; analyzed: boolean; reltuples: number; dead: number }>(
    handle.db,
    sql`select s.last_vacuum is not null as vacuumed, s.last_analyze is not null as analyzed, c.reltuples::float8 as reltuples, s.n_dead_tup::int as dead
          from pg_stat_user_tables s join pg_class c on c.oid = s.relid where s.relname = ${table}`,
  );
  return row!;
}

async function fillAndChurn(handle: DatabaseHandle) {
  await handle.db.execute(sql`insert into app_settings (key, value) select 'maint-' || g, '1'::jsonb from generate_series(1, 500) g`);
  await handle.db.execute(sql`update app_settings set value = '2'::jsonb where key like 'maint-%'`);
}

describe.each(testEngines())("VACUUM (ANALYZE) on a schedule, on %s", (engine) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase(engine);
    await fillAndChurn(handle);
  });
  afterAll(() => handle?.close());

  it("runs at a quiet moment and leaves statistics: last_vacuum, last_analyze, reltuples, no dead rows", async () => {
    expect(await stats(handle, "app_settings")).toMatchObject({ vacuumed: false, analyzed: false });
    const logger = captureLogger();
    const schedule = schedulePgliteMaintenance({ db: handle.db, intervalMs: 60_000, firstRunMs: 10, quietMs: 100, logger });
    await expect.poll(() => logger.lines.find((l) => l.msg === "vacuum analyze of the embedded database"), { timeout: 20_000 }).toBeTruthy();
    await schedule.stop();
    const report = logger.lines.find((l) => l.msg === "vacuum analyze of the embedded database")!.obj as { tables: number; longest: { table: string; ms: number } };
    expect(report.tables).toBeGreaterThan(20);
    expect(report.longest.table).not.toBe("");
    // PostgreSQL's statistics are reported asynchronously (at transaction end, flushed about once a second).
    await expect.poll(() => stats(handle, "app_settings"), { timeout: 10_000 }).toMatchObject({ vacuumed: true, analyzed: true, dead: 0 });
    expect((await stats(handle, "app_settings")).reltuples).toBeGreaterThanOrEqual(500);
  });

  it("waits for a pause in the requests, but not forever", async () => {
    let ran = 0;
    await vacuumAnalyze(handle.db, {
      beforeEach: async () => {
        ran++;
      },
    });
    expect(ran).toBeGreaterThan(20); // one chance to wait before every table

    const logger = captureLogger();
    const busy = () => Date.now(); // a request this very moment, always
    const started = Date.now();
    const schedule = schedulePgliteMaintenance({ db: handle.db, intervalMs: 60_000, firstRunMs: 10, quietMs: 1_000, maxWaitMs: 300, lastRequestAt: busy, logger });
    await expect.poll(() => logger.lines.some((l) => l.msg === "vacuum analyze of the embedded database"), { timeout: 60_000 }).toBe(true);
    await schedule.stop();
    // Each table waited its maxWaitMs for a pause that never came, then ran anyway.
    expect(Date.now() - started).toBeGreaterThanOrEqual(300 * 20);
  });

  it("stops between tables on shutdown", async () => {
    const logger = captureLogger();
    const schedule = schedulePgliteMaintenance({ db: handle.db, intervalMs: 60_000, firstRunMs: 10, quietMs: 1_000, maxWaitMs: 60_000, lastRequestAt: () => Date.now(), logger });
    await new Promise((r) => setTimeout(r, 200)); // waiting for a pause before the first table
    const t0 = Date.now();
    await schedule.stop();
    expect(Date.now() - t0).toBeLessThan(1_500);
    expect(logger.lines.filter((l) => l.level !== "debug")).toEqual([]); // neither a report nor a warning
  });
});
