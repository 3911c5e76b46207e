import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { chartsService } from "./service.js";
import { chartFixtures, DAY, HOUR, NOW } from "./test-fixtures.js";

describe.each(testEngines())("GET /api/forntend/getrank on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let mix: number;
  let single: number;

  const getrank = (query: string) => app.inject({ url: `/api/forntend/getrank${query}` });

  beforeAll(async () => {
    testApp = await createTestApp(engine);
    app = testApp.app;
    const fx = chartFixtures(testApp.database.db);
    mix = await fx.item("djuu", "mix", "慢摇串烧");
    single = await fx.item("172minx", "single", "夜曲", { artist: "周杰伦" });
    await fx.plays(mix, 3, HOUR);
    await fx.plays(single, 2, 3 * DAY);
    expect((await testApp.app.services.charts.rebuildCharts(NOW)).status).toBe("rebuilt");
  });
  afterAll(() => testApp?.close());

  it("answers one chart with its spec key", async () => {
    const res = await getrank("?site=djuu&type=mix&period=day");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      code: 1,
      data: {
        site: "djuu",
        type: "mix",
        period: "day",
        key: "rank_day",
        updateTime: NOW.getTime() / 1000,
        list: [{ id: mix, name: "慢摇串烧", url: `/sutie/${mix}.html`, plays: 3, rank: 1, cover: "/img/noimage.png" }],
      },
    });
    const singles = (await getrank("?site=172minx&type=single&period=week")).json();
    expect(singles.data).toMatchObject({ key: "dan_rank_week", list: [{ id: single, artist: "周杰伦", plays: 2 }] });
  });

  it("defaults to djuu, mix, week and answers an empty chart as an empty list", async () => {
    expect((await getrank("")).json().data).toMatchObject({ site: "djuu", type: "mix", period: "week", key: "rank_week" });
    const empty = (await getrank("?site=vvvdj&type=single&period=quarter")).json();
    expect(empty).toMatchObject({ code: 1, data: { list: [], key: "dan_rank_quarter" } });
    expect(empty.data.updateTime).toBe(NOW.getTime() / 1000);
  });

  it("answers 400 with a Chinese message for bad values, never a 500", async () => {
    const cases: [string, string][] = [
      ["?site=qq", "榜单站点只能是 djuu、172minx、vvvdj 或 local"],
      ["?site=djuu'%20or%201=1--", "榜单站点只能是 djuu、172minx、vvvdj 或 local"],
      ["?site=djuu&site=vvvdj", "榜单站点只能是 djuu、172minx、vvvdj 或 local"],
      ["?type=album", "榜单类型只能是 mix（套曲）或 single（单曲）"],
      ["?type=<script>", "榜单类型只能是 mix（套曲）或 single（单曲）"],
      ["?period=year", "榜单周期只能是 day、week、month 或 quarter"],
      ["?period=", "榜单周期只能是 day、week、month 或 quarter"],
      ["?type=single&period=day", "单曲榜没有日榜，请选择 week、month 或 quarter"],
    ];
    for (const [query, msg] of cases) {
      const res = await getrank(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toMatchObject({ code: 0, msg });
    }
  });

  it("is in the OpenAPI document", async () => {
    const doc = (await app.inject({ url: "/api/docs/json" })).json();
    expect(doc.paths["/api/forntend/getrank"].get.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
      "board",
      "period",
      "site",
      "type",
    ]);
  });
});

describe.each(testEngines())("background chart job with the app on %s", (engine) => {
  it("rebuilds when the app is ready and is stopped before the database closes", async () => {
    const testApp = await createTestApp(engine, { env: { CHARTS_REBUILD_INTERVAL_MS: "60000" } });
    try {
      const fx = chartFixtures(testApp.database.db);
      const { charts, chartScheduler } = testApp.app.services;
      await charts.idle();
      expect(await charts.chartSide()).toMatchObject({ vvvdj: { rank_day: [] } });
      const id = await fx.item("vvvdj", "mix", "A");
      await fx.plays(id, 2, HOUR, new Date());
      // The rebuild started at ready may have run before the play existed: one more tick.
      await chartScheduler.tick();
      expect((await charts.chartSide()).vvvdj.rank_day).toEqual([expect.objectContaining({ id, plays: 2 })]);
    } finally {
      await testApp.close();
    }
  });
});
