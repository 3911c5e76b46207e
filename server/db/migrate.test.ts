import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRawSession, testEngines } from "../testing/test-db.js";
import { loadMigrations, migrate, MigrationHashMismatchError, MIGRATIONS_TABLE } from "./migrate.js";
import { pgSession } from "./open.js";
import { silentLogger, type SqlSession } from "./types.js";

const migrations = loadMigrations();

describe.each(testEngines())("migrations on %s", (engine) => {
  let raw: Awaited<ReturnType<typeof openRawSession>>;
  let session: SqlSession;
  beforeAll(async () => {
    raw = await openRawSession(engine);
    session = raw.session;
  });
  afterAll(async () => raw?.close());

  it("applies every journal entry in order, pg_trgm first, recording each hash", async () => {
    const { applied } = await migrate(session, silentLogger, migrations);
    expect(applied).toEqual(migrations.map((m) => m.tag));
    expect(applied[0]).toMatch(/pg_trgm/);
    const rows = await session.query<{ tag: string; hash: string }>(
      `select tag, hash from ${MIGRATIONS_TABLE} order by created_at`,
    );
    expect(rows).toEqual(migrations.map((m) => ({ tag: m.tag, hash: m.hash })));
  });

  it("created the tables, the extension and the reference source sites", async () => {
    const [tables] = await session.query<{ n: number }>(
      `select count(*)::int as n from information_schema.tables where table_schema = 'public'
        and table_name in ('users','admins','sessions','items','categories','play_events','chart_entries')`,
    );
    expect(tables.n).toBe(7);
    expect(await session.query(`select 1 from pg_extension where extname = 'pg_trgm'`)).toHaveLength(1);
    const sites = await session.query<{ code: string }>(`select code from source_sites order by sort`);
    expect(sites.map((s) => s.code)).toEqual(["djuu", "172minx", "vvvdj", "local"]);
  });

  it("is idempotent: a second run applies nothing", async () => {
    expect((await migrate(session, silentLogger, migrations)).applied).toEqual([]);
  });

  it("refuses a migration that was edited after being applied", async () => {
    const edited = migrations.map((m, i) => (i === 1 ? { ...m, hash: "0".repeat(64) } : m));
    await expect(migrate(session, silentLogger, edited)).rejects.toBeInstanceOf(MigrationHashMismatchError);
  });

  it("rolls a failing migration back completely", async () => {
    const broken = {
      tag: "9999_broken",
      hash: "x",
      createdAt: Date.now(),
      statements: ["create table half_done (id int)", "select * from no_such_table"],
    };
    await expect(migrate(session, silentLogger, [...migrations, broken])).rejects.toThrow(/9999_broken failed/);
    const [left] = await session.query<{ n: number }>(
      `select (select count(*)::int from information_schema.tables where table_name = 'half_done')
            + (select count(*)::int from ${MIGRATIONS_TABLE} where tag = '9999_broken') as n`,
    );
    expect(left.n).toBe(0);
    // ...and the lock was released: the next run goes through.
    expect((await migrate(session, silentLogger, migrations)).applied).toEqual([]);
  });
});

describe.runIf(testEngines().includes("postgres"))("concurrent migrators on postgres", () => {
  let first: Awaited<ReturnType<typeof openRawSession>>;
  let second: { session: SqlSession; close(): Promise<void> };
  beforeAll(async () => {
    first = await openRawSession("postgres");
    const client = new pg.Client({ connectionString: first.url });
    await client.connect();
    second = { session: pgSession(client), close: () => client.end() };
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it("take turns under the advisory lock: one applies everything, the other nothing", async () => {
    const results = await Promise.all(
      [first.session, second.session].map((s) => migrate(s, silentLogger, migrations)),
    );
    expect(results.map((r) => r.applied.length).sort()).toEqual([0, migrations.length]);
    const [row] = await first.session.query<{ n: number }>(`select count(*)::int as n from ${MIGRATIONS_TABLE}`);
    expect(row.n).toBe(migrations.length);
  });
});
