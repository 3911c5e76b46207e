import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureLogger, createTestDatabase, testEngines } from "../testing/test-db.js";
import { schedulePgliteMaintenance } from "./pglite-maintenance.js";
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
  // The update's dead rows reach the statistics now, not up to a second later (after the
  // VACUUM under test had already counted them gone): the flush happens as the next query ends.
  await handle.db.execute(sql`select pg_stat_force_next_flush()`);
  await handle.db.execute(sql`select 1`);
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
    const report = logger.lines.find((l) => l.msg === "vacuum analyze of the embedded database")!.obj as { tables: number; longest: { statement: string; ms: number } };
    expect(report.tables).toBeGreaterThan(20);
    expect(report.longest.statement).toMatch(/^(vacuum|analyze) public\./);
    // PostgreSQL's statistics are reported asynchronously (at transaction end, flushed about once a second).
    await expect.poll(() => stats(handle, "app_settings"), { timeout: 10_000 }).toMatchObject({ vacuumed: true, analyzed: true });
    // The updated rows' old versions are gone (on the shared PostgreSQL of the tests, another
    // test's open snapshot may keep them: autovacuum runs there anyway, this is for PGlite).
    if (engine === "pglite") expect((await stats(handle, "app_settings")).dead).toBe(0);
    expect((await stats(handle, "app_settings")).reltuples).toBeGreaterThanOrEqual(500);
  });

  it("waits for a pause in the requests before each statement, but not forever", { timeout: 120_000 }, async () => {
    const logger = captureLogger();
    const busy = () => Date.now(); // a request this very moment, always
    const started = Date.now();
    const schedule = schedulePgliteMaintenance({ db: handle.db, intervalMs: 60_000, firstRunMs: 10, quietMs: 1_000, maxWaitMs: 50, lastRequestAt: busy, logger });
    await expect.poll(() => logger.lines.find((l) => l.msg === "vacuum analyze of the embedded database"), { timeout: 100_000, interval: 200 }).toBeTruthy();
    await schedule.stop();
    const { tables } = logger.lines.find((l) => l.msg === "vacuum analyze of the embedded database")!.obj as { tables: number };
    // Each of the two statements a table waited its maxWaitMs for a pause that never came, then ran anyway.
    expect(Date.now() - started).toBeGreaterThanOrEqual(50 * 2 * tables);
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
