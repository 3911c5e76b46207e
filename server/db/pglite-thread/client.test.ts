import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isUniqueViolation } from "../../modules/profile/profile-repo.js";
import { pgliteTemplate } from "../../testing/test-db.js";
import { openPgliteDatabase } from "../open.js";
import { poolStatsOf } from "../pool-stats.js";
import { queryRows } from "../sql.js";
import type { DatabaseHandle } from "../types.js";
import { PgliteThread } from "./client.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each([false, true])("PGlite on a thread of its own (ADR 0068), prepared statements: %s", (prepared) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openPgliteDatabase(undefined, { loadDataDir: await pgliteTemplate("migrated"), thread: true, prepared });
    await handle.db.execute(sql`create table thread_probe (id int primary key, note text)`);
  }, 60_000);
  afterAll(() => handle?.close());

  it("opens a migrated database from a template, and runs Drizzle's queries there", async () => {
    expect(handle.queriesOnThisThread).toBe(false);
    expect((handle.db as unknown as { $client: unknown }).$client).toBeInstanceOf(PgliteThread);
    const [migrations] = await queryRows<{ n: number }>(handle.db, sql`select count(*)::int as n from app_migrations`);
    expect(migrations!.n).toBeGreaterThan(10);
  });

  it("gives back PostgreSQL's values as PGlite does: numbers, bigints, JSON, bytes, arrays, and timestamps as Drizzle asks", async () => {
    const [row] = await queryRows<Record<string, unknown>>(
      handle.db,
      sql`select 7::int as i, 9007199254740993::bigint as big, '{"a":[1,"二"]}'::jsonb as j, '\\x0102ff'::bytea as b, array[1,2,3] as arr, '2026-11-27 10:00:00+00'::timestamptz as at, null::text as nothing`,
    );
    expect(row).toEqual({ i: 7, big: 9007199254740993n, j: { a: [1, "二"] }, b: new Uint8Array([1, 2, 255]), arr: [1, 2, 3], at: "2026-11-27 10:00:00+00", nothing: null });
  });

  it("rebuilds a database error with PostgreSQL's fields, so a unique violation reads as one", async () => {
    await handle.db.execute(sql`insert into thread_probe values (1, 'one')`);
    const err = await handle.db.execute(sql`insert into thread_probe values (1, 'again')`).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isUniqueViolation(err)).toBe(true);
    const cause = (err as { cause?: { code?: string; constraint?: string; message?: string } }).cause;
    expect(cause).toMatchObject({ code: "23505", constraint: "thread_probe_pkey" });
    expect(cause?.message).toMatch(/duplicate key/);
  });

  it("commits a transaction, rolls back one that throws, and keeps a savepoint's inner failure inside", async () => {
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`insert into thread_probe values (2, 'committed')`);
    });
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.execute(sql`insert into thread_probe values (3, 'rolled back')`);
        throw new Error("abandon");
      }),
    ).rejects.toThrow("abandon");
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`insert into thread_probe values (4, 'outer')`);
      await tx.transaction(async (inner) => {
        await inner.execute(sql`insert into thread_probe values (5, 'inner')`);
        throw new Error("inner only");
      }).catch(() => undefined);
    });
    const ids = await queryRows<{ id: number }>(handle.db, sql`select id from thread_probe order by id`);
    expect(ids.map((r) => r.id)).toEqual([1, 2, 4]);
  });

  it("runs no other call inside an open transaction: a query sent meanwhile waits for its end", async () => {
    let counted: number | undefined;
    const transaction = handle.db.transaction(async (tx) => {
      await tx.execute(sql`insert into thread_probe values (6, 'never kept')`);
      // Another request's query, sent while the transaction is open.
      void queryRows<{ n: number }>(handle.db, sql`select count(*)::int as n from thread_probe where id = 6`).then(([r]) => (counted = r!.n));
      await sleep(50);
      expect(counted).toBeUndefined();
      throw new Error("roll back");
    });
    await expect(transaction).rejects.toThrow("roll back");
    await expect.poll(() => counted).toBe(0);
  });

  it("runs transactions started at once one after another: no read-modify-write is lost", async () => {
    await handle.db.execute(sql`create table thread_counter (n int not null)`);
    await handle.db.execute(sql`insert into thread_counter values (0)`);
    await Promise.all(
      Array.from({ length: 20 }, () =>
        handle.db.transaction(async (tx) => {
          const [{ n }] = await queryRows<{ n: number }>(tx, sql`select n from thread_counter`);
          await sleep(1);
          await tx.execute(sql`update thread_counter set n = ${n + 1}`);
        }),
      ),
    );
    const [{ n }] = await queryRows<{ n: number }>(handle.db, sql`select n from thread_counter`);
    expect(n).toBe(20);
  });

  it("leaves the server's thread free while a long query runs", async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const started = performance.now();
    await handle.db.execute(sql`select count(*) from generate_series(1, 3000000)`);
    const ms = performance.now() - started;
    clearInterval(timer);
    // In process, the thread would be held for the whole query: no tick at all.
    expect(ms).toBeGreaterThan(50);
    expect(ticks).toBeGreaterThan(ms / 5 / 4);
  });

  it("counts the calls out for the pool gauge", async () => {
    const stats = poolStatsOf(handle)!;
    expect(stats()).toEqual({ size: 1, idle: 1, waiting: 0, max: 1 });
    // (Drizzle runs a query when it is awaited: `then` starts each now.)
    const calls = [1, 2, 3].map(() => handle.db.execute(sql`select count(*) from generate_series(1, 1000000)`).then(() => undefined));
    await expect.poll(() => stats()).toMatchObject({ idle: 0, waiting: 2 });
    await Promise.all(calls);
    expect(stats()).toMatchObject({ idle: 1, waiting: 0 });
  });

  it("answers a statement again after its table changed under it", async () => {
    await handle.db.execute(sql`create table thread_shape (a int)`);
    await handle.db.execute(sql`insert into thread_shape values (1)`);
    const read = () => queryRows<Record<string, unknown>>(handle.db, sql`select * from thread_shape`);
    expect(await read()).toEqual([{ a: 1 }]);
    await handle.db.execute(sql`alter table thread_shape add column b text default 'x'`);
    expect(await read()).toEqual([{ a: 1, b: "x" }]);
  });

  it("refuses calls once closed, with a clear error, and closing twice is harmless", async () => {
    const other = await openPgliteDatabase(undefined, { loadDataDir: await pgliteTemplate("migrated"), thread: true });
    await other.close();
    await other.close();
    await expect(other.db.execute(sql`select 1`)).rejects.toMatchObject({ cause: { message: "the embedded database is closed" } });
  }, 60_000);
});
