/**
 * Issue 14, bad days on the embedded default: the real server (a child process on PGlite) is
 * killed with SIGKILL during initdb, during the first-start demo seed and during a stream of
 * acknowledged writes; each next start opens cleanly and finishes what was interrupted (ADR 0042).
 */
import { access, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isInitialised } from "../server/db/pglite-datadir";
import { SEED_KEY } from "../server/db/seed/index";
import { queryRows } from "../server/db/sql";
import type { DatabaseHandle } from "../server/db/types";
import { addMembers, login, openCopyOf, startKillableSite } from "./killable-site";
import { missingWrites, startWriteStream } from "./write-stream";

const PASSWORD = "crash-test-1";
const FULL = { base: true, mixes: 240, singles: 120, plays: 30_000 };
const exists = (p: string) => access(p).then(() => true, () => false);
const rows = <T>(database: DatabaseHandle, query: ReturnType<typeof sql>) => queryRows<T>(database.db, query);

async function seedState(database: DatabaseHandle) {
  const [progress] = await rows<{ value: typeof FULL }>(database, sql`select value from app_settings where key = ${SEED_KEY}`);
  const [counts] = await rows<{ mixes: number; singles: number; plays: number; blocks: number; categories: number }>(
    database,
    sql`select (select count(*)::int from items where kind = 'mix') as mixes, (select count(*)::int from items where kind = 'single') as singles,
               (select count(*)::int from play_events) as plays, (select count(*)::int from blocks) as blocks, (select count(*)::int from categories) as categories`,
  );
  return { progress: progress?.value, counts };
}

describe("the embedded default killed with SIGKILL", () => {
  let dataDir = "";
  const dbDir = () => path.join(dataDir, "db");
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "djcrash-"));
  });
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("during initdb: the half-made database never becomes DATA_DIR/db", { timeout: 120_000 }, async () => {
    const site = await startKillableSite(dataDir, { SEED_DEMO: "0" });
    for (const started = Date.now(); !(await exists(`${dbDir()}.initdb/PG_VERSION`)); ) {
      if (Date.now() - started > 60_000) throw new Error(`initdb never began:\n${site.output()}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(await site.kill()).toBe("SIGKILL");
    expect(await isInitialised(dbDir())).toBe(false);
  });

  it("during the demo seed: the killed state is a prefix of whole chunks, and the next start completes it", { timeout: 300_000 }, async () => {
    const first = await startKillableSite(dataDir);
    await first.waitForLog(/^seeded demo mixes$/, 240_000);
    expect(await first.kill()).toBe("SIGKILL");

    const killed = await openCopyOf(dataDir);
    try {
      const { progress, counts } = await seedState(killed.database);
      // Killed mid-seed: the mixes were in, not everything after them.
      expect(progress.mixes).toBe(240);
      expect(progress.singles < FULL.singles || progress.plays < FULL.plays).toBe(true);
      // No half chunk: the rows are exactly what the progress marker says.
      expect(counts).toMatchObject({ mixes: progress.mixes, singles: progress.singles, plays: progress.plays });
    } finally {
      await killed.dispose();
    }

    const second = await startKillableSite(dataDir);
    await second.healthy();
    const ready = await second.waitForLog(/^demo catalogue ready$/);
    expect((ready.added as { plays: number }).plays).toBeGreaterThan(0);
    expect(await second.stop()).toBe(0);

    const after = await openCopyOf(dataDir);
    try {
      const { progress, counts } = await seedState(after.database);
      expect(progress).toEqual(FULL);
      expect(counts).toMatchObject({ mixes: 240, singles: 120, plays: 30_000, blocks: 3 });
      expect((await rows<{ n: number }>(after.database, sql`select count(*)::int as n from categories group by diyname having count(*) > 1`)).length).toBe(0);
    } finally {
      await after.dispose();
    }
  });

  it("during a stream of likes, favourites and comments: every acknowledged write is there after the restart", { timeout: 300_000 }, async () => {
    const names = await addMembers(dataDir, 6, PASSWORD);
    const copy = await openCopyOf(dataDir);
    const itemIds = (await rows<{ id: number }>(copy.database, sql`select id from items where status = 'normal' order by id`)).map((r) => r.id);
    await copy.dispose();

    const site = await startKillableSite(dataDir, { PGLITE_VACUUM_INTERVAL_MS: "0" });
    await site.healthy();
    const members = await Promise.all(names.map(async (name) => ({ name, token: await login(site.url, name, PASSWORD) })));
    const stream = startWriteStream(site.url, members, itemIds);
    while (stream.acked.length < 300) await new Promise((r) => setTimeout(r, 20));
    const inFlightAtKill = stream.inFlight();
    expect(await site.kill()).toBe("SIGKILL");
    await stream.done;
    expect(inFlightAtKill).toBeGreaterThan(0); // killed with writes under way
    const acked = [...stream.acked];
    expect(acked.some((w) => w.kind === "comment")).toBe(true);

    const restarted = await startKillableSite(dataDir, { PGLITE_VACUUM_INTERVAL_MS: "0" });
    await restarted.healthy();
    // The restarted server serves the members' state: one like read back through the API.
    const like = acked.find((w) => w.kind === "like")!;
    const token = await login(restarted.url, like.user, PASSWORD);
    const state = await fetch(`${restarted.url}/api/user/item-state?ids=${like.item}`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json());
    expect(JSON.stringify(state)).toContain('"is_liked":true');
    expect(await restarted.stop()).toBe(0);

    const after = await openCopyOf(dataDir);
    try {
      expect(await missingWrites(after.database, acked)).toEqual([]);
    } finally {
      await after.dispose();
    }
  });
});
