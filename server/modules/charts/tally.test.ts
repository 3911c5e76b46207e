import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../db/open.js";
import { queryRows } from "../../db/sql.js";
import { Rng } from "../../db/seed/prng.js";
import { createTestDatabase, testEngines } from "../../testing/test-db.js";
import { CHART_WINDOW_MS, chartsService } from "./service.js";
import { TALLY_KEY } from "./tally-repo.js";
import { inProcessBus } from "../../events/bus.js";
import { catalogueWriteService } from "../catalogue-write/service.js";
import { chartFixtures, DAY, HOUR, NOW } from "./test-fixtures.js";

type Counts = Record<number, { day: number; week: number; month: number; quarter: number }>;

/** What item_plays must hold at `now`, counted the slow way from every event. */
async function expectedCounts(db: DatabaseHandle["db"], now: Date): Promise<Counts> {
  const rows = await queryRows<{ item_id: number; at: string | Date }>(db, sql`select item_id, played_at as at from play_events`);
  const counts: Counts = {};
  for (const { item_id, at } of rows) {
    const age = now.getTime() - new Date(at).getTime();
    if (age < 0) continue;
    const c = (counts[item_id] ??= { day: 0, week: 0, month: 0, quarter: 0 });
    for (const period of ["day", "week", "month", "quarter"] as const) if (age < CHART_WINDOW_MS[period]) c[period] += 1;
  }
  for (const [id, c] of Object.entries(counts)) if (c.quarter === 0) delete counts[Number(id)];
  return counts;
}

async function storedCounts(db: DatabaseHandle["db"]): Promise<Counts> {
  const rows = await queryRows<{ item_id: number; day: number; week: number; month: number; quarter: number }>(
    db,
    sql`select item_id, day, week, month, quarter from item_plays`,
  );
  return Object.fromEntries(rows.map(({ item_id, ...c }) => [item_id, c]));
}

describe.each(testEngines())("running play counts (item_plays) on %s", (engine) => {
  let database: DatabaseHandle;
  let fx: ReturnType<typeof chartFixtures>;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    fx = chartFixtures(database.db);
  });
  afterAll(() => database?.close());
  beforeEach(() => fx.reset());

  const rebuild = async (now: Date, tallyBacklogEvents?: number) => {
    const result = await chartsService(database.db, { tallyBacklogEvents }).rebuildCharts(now);
    expect(result.status).toBe("rebuilt");
  };

  it.each([
    ["under the lock", undefined],
    ["with every backlog counted first, without the lock", 0],
  ])("equals a count of every event after any sequence of rebuilds, forwards and backwards in time (%s)", async (_, backlog) => {
    const rng = Rng.for("tally-test", 1);
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push(await fx.item(i % 2 ? "djuu" : "vvvdj", i % 3 ? "mix" : "single", `t${i}`));
    const addPlays = async (base: Date, n: number) => {
      for (let i = 0; i < n; i++) {
        // Ages from 2 days in the future to 100 days back, some exactly on a window edge.
        const edge = rng.chance(0.2);
        const age = edge ? [0, DAY, 7 * DAY, 30 * DAY, 90 * DAY][Math.floor(rng.next() * 5)] : Math.floor((rng.next() * 102 - 2) * DAY);
        await fx.plays(ids[Math.floor(rng.next() * ids.length)], 1 + Math.floor(rng.next() * 3), age, base);
      }
    };
    await addPlays(NOW, 40);
    const steps = [0, 5 * 60_000, HOUR, DAY + 7, 3 * DAY, -2 * DAY, 45 * DAY, 10 * DAY, 200 * DAY, 0];
    for (const [i, offset] of steps.entries()) {
      const now = new Date(NOW.getTime() + offset);
      if (i % 2 === 0) await addPlays(now, 10);
      await rebuild(now, backlog);
      expect(await storedCounts(database.db), `after rebuild ${i} at ${now.toISOString()}`).toEqual(
        await expectedCounts(database.db, now),
      );
    }
  });

  it("counts events recorded since the last rebuild, however old they are, and drops items out of every window", async () => {
    const a = await fx.item("djuu", "mix", "A");
    const b = await fx.item("djuu", "mix", "B");
    await fx.plays(a, 2, HOUR);
    await rebuild(NOW);
    expect(await fx.chart("djuu", "mix", "day")).toEqual([[a, 2]]);

    // Recorded later but played earlier (a late report): it lands in the windows it belongs to.
    await fx.plays(b, 3, 3 * DAY);
    await fx.plays(a, 1, 0);
    await rebuild(new Date(NOW.getTime() + 60_000));
    expect(await fx.chart("djuu", "mix", "day")).toEqual([[a, 3]]);
    expect(await fx.chart("djuu", "mix", "week")).toEqual([[a, 3], [b, 3]]); // a tie: lower id first

    await rebuild(new Date(NOW.getTime() + 100 * DAY));
    expect(await storedCounts(database.db)).toEqual({});
  });

  it("starts over from every event when its state is gone, with the same charts", async () => {
    const ids = [await fx.item("172minx", "mix", "x"), await fx.item("172minx", "mix", "y")];
    await fx.plays(ids[0], 4, 2 * HOUR);
    await fx.plays(ids[1], 5, 8 * DAY);
    await rebuild(NOW);
    await rebuild(new Date(NOW.getTime() + HOUR));
    const month = await fx.chart("172minx", "mix", "month");
    await database.db.execute(sql`delete from app_settings where key = ${TALLY_KEY}`);
    await database.db.execute(sql`truncate item_plays`);
    await rebuild(new Date(NOW.getTime() + HOUR));
    expect(await fx.chart("172minx", "mix", "month")).toEqual(month);
    expect(month).toEqual([[ids[1], 5], [ids[0], 4]]);
  });

  it("follows an item moved to another site or kind", async () => {
    const a = await fx.item("djuu", "mix", "A");
    await fx.plays(a, 2, HOUR);
    await rebuild(NOW);
    await catalogueWriteService(database.db, inProcessBus()).updateItem(a, { sourceSite: "vvvdj" });
    await fx.plays(a, 1, 0, new Date(NOW.getTime() + 60_000));
    await rebuild(new Date(NOW.getTime() + 60_000));
    expect(await fx.chart("djuu", "mix", "day")).toEqual([]);
    expect(await fx.chart("vvvdj", "mix", "day")).toEqual([[a, 3]]);
  });
});
