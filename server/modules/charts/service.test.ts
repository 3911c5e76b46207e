import { SIDE_KEYS } from "@contracts/charts";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../db/open.js";
import { inProcessBus } from "../../events/bus.js";
import { catalogueWriteService } from "../catalogue-write/service.js";
import { queryRows } from "../../db/sql.js";
import { createTestDatabase, testEngines } from "../../testing/test-db.js";
import { CHART_LOCK_KEY } from "./repo.js";
import { createChartScheduler } from "./scheduler.js";
import { CHART_TOP, chartsService } from "./service.js";
import { chartFixtures, DAY, HOUR, NOW } from "./test-fixtures.js";

describe.each(testEngines())("chart rebuild on %s", (engine) => {
  let database: DatabaseHandle;
  let fx: ReturnType<typeof chartFixtures>;
  let charts: ReturnType<typeof chartsService>;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    fx = chartFixtures(database.db);
    charts = chartsService(database.db);
  });
  afterAll(() => database?.close());
  beforeEach(() => fx.reset());

  const rebuilt = async (now = NOW) => {
    const result = await charts.rebuildCharts(now);
    expect(result.status).toBe("rebuilt");
    return result;
  };

  it("counts each play in the rolling windows that contain it: (now - length, now]", async () => {
    const a = await fx.item("djuu", "mix", "A");
    const b = await fx.item("djuu", "mix", "B");
    const c = await fx.item("djuu", "mix", "C");
    const d = await fx.item("djuu", "mix", "D");
    const old = await fx.item("djuu", "mix", "old");
    const future = await fx.item("djuu", "mix", "future");
    const edge = await fx.item("djuu", "mix", "edge");
    await fx.plays(a, 3, HOUR);
    await fx.plays(b, 5, 2 * DAY); // week, not day
    await fx.plays(c, 7, 10 * DAY); // month, not week
    await fx.plays(d, 9, 60 * DAY); // quarter, not month
    await fx.plays(old, 100, 91 * DAY); // no window
    await fx.plays(future, 50, -HOUR); // after now: no window
    await fx.plays(edge, 1, DAY); // exactly 24 h old: out of the day, in the week
    await fx.plays(edge, 1, 0); // exactly now: in every window
    await fx.plays(edge, 1, 90 * DAY); // exactly 90 days old: out of the quarter

    await rebuilt();
    expect(await fx.chart("djuu", "mix", "day")).toEqual([[a, 3], [edge, 1]]);
    expect(await fx.chart("djuu", "mix", "week")).toEqual([[b, 5], [a, 3], [edge, 2]]);
    expect(await fx.chart("djuu", "mix", "month")).toEqual([[c, 7], [b, 5], [a, 3], [edge, 2]]);
    expect(await fx.chart("djuu", "mix", "quarter")).toEqual([[d, 9], [c, 7], [b, 5], [a, 3], [edge, 2]]);
  });

  it("breaks ties by item id, ascending, whatever the order the plays came in", async () => {
    const ids = [await fx.item("vvvdj", "mix", "t1"), await fx.item("vvvdj", "mix", "t2"), await fx.item("vvvdj", "mix", "t3")];
    const top = await fx.item("vvvdj", "mix", "top");
    for (const id of [...ids].reverse()) await fx.plays(id, 4, 3 * HOUR);
    await fx.plays(top, 5, 5 * HOUR);
    await rebuilt();
    const expected = [[top, 5], ...ids.map((id) => [id, 4])];
    expect(await fx.chart("vvvdj", "mix", "day")).toEqual(expected);
    await rebuilt();
    expect(await fx.chart("vvvdj", "mix", "day")).toEqual(expected);
  });

  it("keeps sites and kinds apart, has no single day chart, and skips hidden items", async () => {
    const mix = await fx.item("djuu", "mix", "mix");
    const single = await fx.item("djuu", "single", "single");
    const other = await fx.item("172minx", "single", "other");
    const hidden = await fx.item("djuu", "mix", "hidden", { status: "hidden" });
    for (const id of [mix, single, other, hidden]) await fx.plays(id, 2, HOUR);
    await rebuilt();
    expect(await fx.groups()).toEqual([
      "172minx/single/month",
      "172minx/single/quarter",
      "172minx/single/week",
      "djuu/mix/day",
      "djuu/mix/month",
      "djuu/mix/quarter",
      "djuu/mix/week",
      "djuu/single/month",
      "djuu/single/quarter",
      "djuu/single/week",
    ]);
    expect(await fx.chart("djuu", "mix", "week")).toEqual([[mix, 2]]);
    expect(await fx.chart("djuu", "single", "week")).toEqual([[single, 2]]);
    expect(await fx.chart("172minx", "single", "quarter")).toEqual([[other, 2]]);
  });

  it("lists the most played items across every chart, best ranked first, each once, visible only", async () => {
    const a = await fx.item("djuu", "mix", "a"); // first of djuu's mix charts
    const b = await fx.item("djuu", "mix", "b"); // second there
    const s = await fx.item("172minx", "single", "s"); // first of 172minx's single charts, fewer plays than a
    const c = await fx.item("djuu", "mix", "c"); // third
    await fx.plays(a, 9, HOUR);
    await fx.plays(b, 5, HOUR);
    await fx.plays(s, 3, 2 * DAY);
    await fx.plays(c, 1, 10 * DAY);
    await rebuilt();
    expect(await charts.mostPlayed(10)).toEqual([a, s, b, c]);
    expect(await charts.mostPlayed(2)).toEqual([a, s]);
    expect(await charts.mostPlayed(0)).toEqual([]);
    // Hidden since the rebuild: left out at once, as the charts leave it out.
    await catalogueWriteService(database.db, inProcessBus()).setItemsStatus([a], "hidden");
    expect(await charts.mostPlayed(10)).toEqual([s, b, c]);
  });

  it(`keeps the first ${CHART_TOP} of each chart`, async () => {
    const ids: number[] = [];
    for (let i = 1; i <= CHART_TOP + 5; i++) {
      const id = await fx.item("172minx", "mix", `m${i}`);
      ids.push(id);
      await fx.plays(id, i, 2 * HOUR);
    }
    const result = await rebuilt();
    expect(result).toMatchObject({ rows: 4 * CHART_TOP });
    const day = await fx.chart("172minx", "mix", "day");
    expect(day).toHaveLength(CHART_TOP);
    expect(day[0]).toEqual([ids.at(-1), CHART_TOP + 5]);
    expect(day.at(-1)).toEqual([ids[5], 6]);
  });

  it("cuts ties at the bottom of the chart by item id as well", async () => {
    const ids: number[] = [];
    for (let i = 0; i < CHART_TOP + 3; i++) ids.push(await fx.item("vvvdj", "single", `s${i}`));
    const lead = ids.at(-1)!;
    for (const id of [...ids].reverse()) await fx.plays(id, id === lead ? 2 : 1, DAY + HOUR);
    await rebuilt();
    const week = await fx.chart("vvvdj", "single", "week");
    expect(week).toEqual([[lead, 2], ...ids.slice(0, CHART_TOP - 1).map((id) => [id, 1])]);
  });

  it("replaces every chart: a later rebuild drops what is no longer in any window", async () => {
    const a = await fx.item("djuu", "mix", "A");
    const b = await fx.item("vvvdj", "single", "B");
    await fx.plays(a, 2, HOUR);
    await fx.plays(b, 2, 3 * DAY);
    await rebuilt();
    expect((await fx.groups()).length).toBe(4 + 3);

    await rebuilt(new Date(NOW.getTime() + 2 * DAY));
    expect(await fx.chart("djuu", "mix", "day")).toEqual([]);
    expect(await fx.chart("djuu", "mix", "week")).toEqual([[a, 2]]);

    const result = await rebuilt(new Date(NOW.getTime() + 200 * DAY));
    expect(result).toMatchObject({ rows: 0 });
    expect(await fx.groups()).toEqual([]);
  });

  it("skips a rebuild asked for while one is running in this process", async () => {
    await fx.plays(await fx.item("djuu", "mix", "A"), 1, HOUR);
    const [first, second] = await Promise.all([charts.rebuildCharts(NOW), charts.rebuildCharts(NOW)]);
    expect(first.status).toBe("rebuilt");
    expect(second).toEqual({ status: "skipped", reason: "running" });
    expect((await charts.rebuildCharts(NOW)).status).toBe("rebuilt");
  });

  it.runIf(engine === "postgres")("skips a rebuild while another instance holds the advisory lock", async () => {
    const a = await fx.item("djuu", "mix", "A");
    await fx.plays(a, 1, HOUR);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const taken = new Promise<void>((r) => (locked = r));
    const other = database.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${CHART_LOCK_KEY}::bigint)`);
      locked();
      await held;
    });
    await taken;
    expect(await charts.rebuildCharts(NOW)).toEqual({ status: "skipped", reason: "locked" });
    release();
    await other;
    expect((await charts.rebuildCharts(NOW)).status).toBe("rebuilt");
    expect(await fx.chart("djuu", "mix", "day")).toEqual([[a, 1]]);
  });

  it("builds the side: every spec key per site, top 10, local only when it has entries", async () => {
    const ids: number[] = [];
    for (let i = 1; i <= 12; i++) {
      const id = await fx.item("djuu", "mix", `夜曲${i}`, { artist: "DJ阿远", cover: i === 1 ? "/img/c1.jpg" : null });
      ids.push(id);
      await fx.plays(id, 20 - i, HOUR);
    }
    const single = await fx.item("vvvdj", "single", "单曲", { playtype: "mp4" });
    await fx.plays(single, 3, 5 * DAY);
    await rebuilt();
    const side = await charts.chartSide();
    expect(Object.keys(side)).toEqual(["djuu", "172minx", "vvvdj"]);
    for (const site of Object.values(side)) {
      expect(Object.keys(site)).toEqual([...SIDE_KEYS]);
    }
    expect(side.djuu.rank_day).toHaveLength(10);
    expect(side.djuu.rank_day[0]).toEqual({
      id: ids[0],
      name: "夜曲1",
      artist: "DJ阿远",
      cover: "/img/c1.jpg",
      playtype: "mp3",
      url: `/sutie/${ids[0]}.html`,
      plays: 19,
      rank: 1,
    });
    expect(side.djuu.rank_day[1]).toMatchObject({ cover: "/img/noimage.png", rank: 2, plays: 18 });
    expect(side.djuu.rank_day.map((e) => e.id)).toEqual(ids.slice(0, 10));
    expect(side.djuu.dan_rank_week).toEqual([]);
    expect(side.vvvdj.rank_day).toEqual([]);
    expect(side.vvvdj.dan_rank_week).toEqual([expect.objectContaining({ id: single, playtype: "mp4", plays: 3, rank: 1 })]);
    expect(side["172minx"].rank_quarter).toEqual([]);

    // `local` joins once it has entries; an item hidden after the rebuild leaves no gap.
    await fx.plays(await fx.item("local", "mix", "本站"), 1, HOUR);
    await rebuilt();
    await catalogueWriteService(database.db, inProcessBus()).setItemsStatus([ids[0]], "hidden");
    const after = await chartsService(database.db).chartSide({ limit: 3 });
    expect(Object.keys(after)).toEqual(["djuu", "172minx", "vvvdj", "local"]);
    expect(after.local.rank_day).toHaveLength(1);
    expect(after.djuu.rank_day.map((e) => [e.id, e.rank])).toEqual([
      [ids[1], 1],
      [ids[2], 2],
    ]);
  });

  it("the scheduler rebuilds at start, then on each tick, and stop waits for the running one", async () => {
    await fx.plays(await fx.item("djuu", "mix", "A"), 1, HOUR);
    const lines: string[] = [];
    const log = (obj: object, msg?: string) => void lines.push(msg ?? "");
    const scheduler = createChartScheduler({
      charts: chartsService(database.db),
      intervalMs: 60_000,
      now: () => NOW,
      logger: { debug: log, info: log, warn: log, error: log },
    });
    scheduler.start();
    await scheduler.stop();
    expect(lines).toEqual(["charts rebuilt"]);
    const [row] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from chart_entries`);
    expect(row.n).toBe(4);
    // Stopped: further ticks do nothing.
    await scheduler.tick();
    expect(lines).toEqual(["charts rebuilt"]);
  });
});
