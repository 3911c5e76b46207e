import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  captureLogger,
  createEmptyPostgresDatabase,
  createTestDatabase,
  dropPostgresDatabase,
  pgliteTemplate,
  testAdminUrl,
  testEngines,
  withDatabase,
} from "../testing/test-db.js";
import { buildSearchText, likePattern } from "../modules/search/search-text.js";
import { UnsupportedDatabaseLocaleError } from "./locale-check.js";
import { MIGRATIONS_TABLE } from "./migrate.js";
import { DataDirInUseError } from "./pglite-lock.js";
import { openDatabase, openPgliteDatabase, PGLITE_SHARED_BUFFERS, pgliteBuffersFor, POOL_IDLE_MS } from "./open.js";
import { poolStatsOf } from "./pool-stats.js";
import { categories, items } from "./schema/index.js";
import { queryRows } from "./sql.js";
import type { DatabaseHandle } from "./types.js";

describe.each(testEngines())("Chinese trigram search on %s", (engine) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase(engine);
    // Enough filler that a sequential scan is not trivially cheaper, plus two needles.
    const filler = Array.from({ length: 3000 }, (_, i) => ({
      kind: "single" as const,
      title: `填充 ${i}`,
      playUrl: "/m.mp3",
      sourceSite: "local",
      searchText: buildSearchText(`DJ阿远 - 光年之外 ${i}`, "邓紫棋"),
    }));
    await handle.db.insert(items).values(filler);
    await handle.db.insert(items).values([
      {
        kind: "single",
        title: "周杰伦 - 夜曲",
        playUrl: "/m.mp3",
        sourceSite: "local",
        searchText: buildSearchText("周杰伦 - 夜曲", "周杰伦"),
      },
    ]);
    await handle.db.execute(sql`analyze items`);
  });
  afterAll(async () => handle?.close());

  it("pg_trgm sees Chinese characters as word characters", async () => {
    const [row] = await queryRows<{ sim: number; match: boolean; grams: number }>(
      handle.db,
      sql`select similarity('夜曲串烧', '夜曲') as sim, '周杰伦 夜曲' % '夜曲' as match,
                 array_length(show_trgm('夜曲'), 1) as grams`,
    );
    expect(row.sim).toBeGreaterThan(0);
    expect(row.match).toBe(true);
    expect(row.grams).toBe(3);
  });

  it.each([
    ["周杰伦", 1],
    ["夜", 1], // one character: matched as a unigram word, '% 夜 %'
    ["夜曲", 1], // two characters: matched as a bigram word, '% 夜曲 %'
    ["yequ", 1],
    ["zjl", 1],
    ["光年之外", 3000],
  ])("searching %s goes through the GIN trigram index", async (keyword, expected) => {
    const pattern = likePattern(keyword);
    const plan = await handle.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const rows = await queryRows<Record<string, string>>(
        tx,
        sql`explain (analyze, costs off) select id from items where search_text like ${pattern}`,
      );
      return rows.map((r) => Object.values(r)[0]).join("\n");
    });
    expect(plan).toContain("items_search_trgm_idx");
    // Selective, not a full index scan: the index hands back no rows that the recheck throws away
    // (what happens with '%夜%', which yields no trigrams).
    expect(plan).not.toMatch(/Rows Removed by Index Recheck: [1-9]/);
    const [row] = await queryRows<{ n: number }>(
      handle.db,
      sql`select count(*)::int as n from items where search_text like ${pattern}`,
    );
    expect(row.n).toBe(expected);
  });
});

describe("PGlite on disk", () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "djsearch-open-"));
  });
  afterAll(async () => rm(dataDir, { recursive: true, force: true }));

  it("uses a UTF-8 ctype, keeps data across close/reopen and migrates only once", async () => {
    // The first open starts from the initdb'd template instead of running initdb (seconds) again.
    const log1 = captureLogger();
    const dir = path.join(dataDir, "db");
    const first = await openPgliteDatabase(dir, { logger: log1, loadDataDir: await pgliteTemplate("empty") });
    expect(first.engine).toBe("pglite");
    const [locale] = await queryRows<{ ctype: string; encoding: string }>(
      first.db,
      sql`select datctype as ctype, pg_encoding_to_char(encoding) as encoding
            from pg_database where datname = current_database()`,
    );
    expect(locale).toEqual({ ctype: "C.UTF-8", encoding: "UTF8" });
    await first.db.insert(categories).values({ name: "慢摇串烧", diyname: "manyao" });
    // One process per PGlite directory: a second open while the first is live is refused.
    await expect(openDatabase({ dataDir })).rejects.toBeInstanceOf(DataDirInUseError);
    await first.close();
    await first.close(); // idempotent

    const log2 = captureLogger();
    const second = await openDatabase({ dataDir, logger: log2 });
    try {
      // A small database gets a small buffer pool (ADR 0037): the WebAssembly heap never gives pages back.
      const [pool] = await queryRows<{ shared_buffers: string }>(second.db, sql`show shared_buffers`);
      expect(pool!.shared_buffers).toBe(PGLITE_SHARED_BUFFERS);
      const rows = await second.db.select().from(categories).where(eq(categories.diyname, "manyao"));
      expect(rows).toHaveLength(1);
      const applied = (l: typeof log1) => l.lines.filter((x) => x.msg === "applied database migration").length;
      expect(applied(log1)).toBeGreaterThan(0);
      expect(applied(log2)).toBe(0);
    } finally {
      await second.close();
    }
  });
});

describe.runIf(testEngines().includes("postgres"))("PostgreSQL locale guard", () => {
  let name: string;
  beforeAll(async () => {
    name = await createEmptyPostgresDatabase("C");
  });
  afterAll(async () => name && dropPostgresDatabase(name));

  it("refuses a database whose lc_ctype is C, says why and how to fix it, and creates nothing", async () => {
    const url = withDatabase(testAdminUrl(), name);
    const error = await openDatabase({ databaseUrl: url, dataDir: "unused" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UnsupportedDatabaseLocaleError);
    const message = (error as Error).message;
    expect(message).toContain("lc_ctype is 'C'");
    expect(message).toContain("Chinese");
    expect(message).toContain("LC_CTYPE 'C.UTF-8' LC_COLLATE 'C.UTF-8'");
    expect(message).toContain("TEMPLATE template0");

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query(`select to_regclass('${MIGRATIONS_TABLE}') as t`);
      expect(rows[0].t).toBeNull();
    } finally {
      await client.end();
    }
  });

  it("accepts a C.UTF-8 database", async () => {
    const handle = await createTestDatabase("postgres");
    expect(handle.engine).toBe("postgres");
    await handle.close();
  });
});

describe.runIf(testEngines().includes("postgres"))("PostgreSQL pool at a server's start", () => {
  let name: string;
  beforeAll(async () => {
    name = await createEmptyPostgresDatabase();
  });
  afterAll(async () => name && dropPostgresDatabase(name));

  it("opens every connection before the first request when asked (openPool), and keeps idle ones for minutes", async () => {
    const url = withDatabase(testAdminUrl(), name);
    const connections = async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query<{ n: number }>(
          "select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = 'djsearch'",
        );
        return rows[0]!.n;
      } finally {
        await client.end();
      }
    };
    const opened = await openDatabase({ databaseUrl: url, dataDir: "unused", poolMax: 5, openPool: true });
    try {
      expect(poolStatsOf(opened)!()).toMatchObject({ size: 5, idle: 5, max: 5 });
      expect(await connections()).toBe(5);
      // Idle connections stay POOL_IDLE_MS (Drizzle keeps node-postgres's pool as `$client`).
      expect((opened.db as unknown as { $client: pg.Pool }).$client.options.idleTimeoutMillis).toBe(POOL_IDLE_MS);
    } finally {
      await opened.close();
    }
    // Without it (tests, tools) the pool opens connections on demand, as before.
    const lazy = await openDatabase({ databaseUrl: url, dataDir: "unused", poolMax: 5 });
    try {
      expect(poolStatsOf(lazy)!().size).toBeLessThanOrEqual(1);
    } finally {
      await lazy.close();
    }
    // A burst after a quiet minute finds its connections (pg's default closes them after 10 s).
    expect(POOL_IDLE_MS).toBeGreaterThanOrEqual(60_000);
  });
});

describe("PGlite's buffer pool by the database's size", () => {
  it("is an eighth of the database, from 16MB to 128MB", () => {
    const mb = 1024 * 1024;
    expect(pgliteBuffersFor(0)).toBe("16MB");
    expect(pgliteBuffersFor(70 * mb)).toBe("16MB");
    expect(pgliteBuffersFor(400 * mb)).toBe("50MB");
    expect(pgliteBuffersFor(1300 * mb)).toBe("128MB");
  });
});
