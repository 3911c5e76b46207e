import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppDatabase } from "../../db/open.js";
import { collectedItems, sourceChartEntries } from "../../db/schema/index.js";
import { createSourceAdapters } from "../sources/registry.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { chartFixtures, HOUR, NOW } from "./test-fixtures.js";

const HLS = "application/vnd.apple.mpegurl";

/** What the collector stores: a collected item and its place in a site's chart. */
function collected(db: AppDatabase) {
  return {
    async item(source: string, sourceId: string, title: string, extra: Partial<typeof collectedItems.$inferInsert> = {}): Promise<number> {
      const [row] = await db
        .insert(collectedItems)
        .values({ title, source, sourceId, sourceUrl: `https://www.${source}.example/play/${sourceId}.html`, kind: "mix", ...extra })
        .returning({ id: collectedItems.id });
      return row.id;
    },
    async chart(site: string, kind: "mix" | "single", period: "day" | "week" | "month" | "quarter", ids: number[], at = NOW) {
      await db.execute(sql`delete from ${sourceChartEntries} where site = ${site} and kind = ${kind} and period = ${period}`);
      if (ids.length)
        await db.insert(sourceChartEntries).values(ids.map((collectedItemId, i) => ({ site, kind, period, rank: i + 1, collectedItemId, collectedAt: at })));
    },
  };
}

describe.each(testEngines())("getrank board=site (the sites' own charts) on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let closeSources = () => {};
  let linked: number;
  let hidden: number;
  let fx: ReturnType<typeof chartFixtures>;
  let src: ReturnType<typeof collected>;

  const getrank = (query: string) => app.inject({ url: `/api/forntend/getrank${query}` });

  beforeAll(async () => {
    // 清风DJ in the source directory: its entries play through the route as HLS. Never asked here.
    const built = createSourceAdapters({ userAgent: "DJSearchBot/1.0 (+http://test/about)", logger: { warn: () => {} } });
    closeSources = built.close;
    testApp = await createTestApp(engine, { sourceAdapters: built.sources.filter((s) => s.code === "vvvdj") });
    app = testApp.app;
    const db = testApp.database.db;
    fx = chartFixtures(db);
    src = collected(db);
    linked = await fx.item("djuu", "mix", "本站慢摇", { artist: "DJ本站", cover: "/media/c.jpg", playUrl: "/media/linked.mp3" });
    hidden = await fx.item("djuu", "mix", "已隐藏");
    await app.services.writes.setItemsStatus([hidden], "hidden");
    const a = await src.item("djuu", "101", "站点第一", { artist: "站点歌手", cover: "https://img.djuu.example/1.jpg", status: 1, itemId: linked });
    const b = await src.item("djuu", "102", "未处理的串烧");
    const c = await src.item("djuu", "103", "隐藏的源标题", { status: 1, itemId: hidden });
    await src.chart("djuu", "mix", "week", [a, b, c]);
    // Our plays chart of djuu has one other item.
    const played = await fx.item("djuu", "mix", "本站播放第一");
    await fx.plays(played, 3, HOUR);
    expect((await app.services.charts.rebuildCharts(NOW)).status).toBe("rebuilt");
  });
  afterAll(async () => {
    await testApp?.close();
    closeSources();
  });

  it("answers the site's chart: processed visible items link to us, the rest to the source page", async () => {
    const res = await getrank("?site=djuu&type=mix&period=week&board=site");
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data).toMatchObject({ board: "site", site: "djuu", website: "DJUU", type: "mix", period: "week", key: "rank_week" });
    expect(data.updateTime).toBe(NOW.getTime() / 1000);
    expect(data.list).toEqual([
      {
        id: linked,
        name: "本站慢摇",
        artist: "DJ本站",
        cover: "/media/c.jpg",
        playtype: "mp3",
        url: `/sutie/${linked}.html`,
        palyurl: "/media/linked.mp3",
        rank: 1,
        external: false,
        weburl: "https://www.djuu.example/play/101.html",
        website: "DJUU",
      },
      {
        id: "djuu:102",
        name: "未处理的串烧",
        artist: "",
        cover: "/img/noimage.png",
        playtype: "mp3",
        url: "https://www.djuu.example/play/102.html",
        palyurl: "/api/forntend/source-play?source=djuu&id=102",
        rank: 2,
        external: true,
        weburl: "https://www.djuu.example/play/102.html",
        website: "DJUU",
      },
      // Processed, but the item is hidden: not linked, the source's own title and page.
      expect.objectContaining({ id: "djuu:103", name: "隐藏的源标题", url: "https://www.djuu.example/play/103.html", external: true, rank: 3 }),
    ]);
    expect(JSON.stringify(data)).not.toContain(`/sutie/${hidden}.html`);
  });

  it("leaves the plays board (the default) as it was: our qualified plays in the spec's shape", async () => {
    const plays = (await getrank("?site=djuu&type=mix&period=week")).json().data;
    expect(Object.keys(plays).sort()).toEqual(["key", "list", "period", "site", "type", "updateTime"]);
    expect(plays.list).toEqual([expect.objectContaining({ name: "本站播放第一", plays: 3, rank: 1 })]);
    expect((await getrank("?site=djuu&type=mix&period=week&board=plays")).json().data).toEqual(plays);
  });

  it("an empty or never collected chart is an empty list stamped 0; HLS sources carry the hint", async () => {
    const empty = (await getrank("?site=172minx&type=single&period=month&board=site")).json().data;
    expect(empty).toMatchObject({ board: "site", website: "172Mix", key: "dan_rank_month", list: [], updateTime: 0 });
    const v = await src.item("vvvdj", "9001", "清风串烧");
    await src.chart("vvvdj", "mix", "day", [v]);
    app.services.charts.sourceChartsChanged("vvvdj");
    const hls = (await getrank("?site=vvvdj&type=mix&period=day&board=site")).json().data;
    expect(hls).toMatchObject({ website: "清风DJ", key: "rank_day" });
    expect(hls.list).toEqual([expect.objectContaining({ id: "vvvdj:9001", palyurl: "/api/forntend/source-play?source=vvvdj&id=9001", mimeType: HLS })]);
    // Stored without the site's id: listed and linked out, but with nothing to play.
    const noId = await src.item("172minx", "x", "无编号", { sourceId: null, sourceUrl: "https://www.172mix.example/play/x" });
    await src.chart("172minx", "single", "month", [noId]);
    app.services.charts.sourceChartsChanged("172minx");
    const minx = (await getrank("?site=172minx&type=single&period=month&board=site")).json().data.list;
    expect(minx).toEqual([expect.objectContaining({ id: "172minx:rank-1", palyurl: "", url: "https://www.172mix.example/play/x", external: true })]);
    // DJUU is not HLS: no hint.
    const djuu = (await getrank("?site=djuu&type=mix&period=week&board=site")).json().data;
    expect(djuu.list.every((e: { mimeType?: string }) => e.mimeType === undefined)).toBe(true);
  });

  it("is cached, and a collection's sourceCharts event or an item change drops it", async () => {
    const read = async () => (await getrank("?site=djuu&type=mix&period=week&board=site")).json().data.list.map((e: { name: string }) => e.name);
    const before = await read();
    const fresh = await src.item("djuu", "104", "新上榜");
    await src.chart("djuu", "mix", "week", [fresh]);
    // Stored without telling: the kept chart is still served.
    expect(await read()).toEqual(before);
    // Another site's change leaves it kept too.
    app.services.charts.sourceChartsChanged(["172minx"]);
    expect(await read()).toEqual(before);
    app.services.charts.sourceChartsChanged("djuu");
    expect(await read()).toEqual(["新上榜"]);

    // Processing links it; the item's write event drops the chart.
    const id = await fx.item("djuu", "mix", "处理后的标题");
    await testApp.database.db.execute(sql`update collected_items set status = 1, item_id = ${id} where id = ${fresh}`);
    await app.services.writes.updateItem(id, { artist: "处理后" });
    const list = (await getrank("?site=djuu&type=mix&period=week&board=site")).json().data.list;
    expect(list).toEqual([expect.objectContaining({ id, name: "处理后的标题", url: `/sutie/${id}.html`, external: false })]);
    // Hiding it unlinks it at once.
    await app.services.writes.setItemsStatus([id], "hidden");
    expect(await read()).toEqual(["新上榜"]);
  });

  it("answers 400 in Chinese for a bad board, local's site board and the single day chart", async () => {
    const cases: [string, string][] = [
      ["?board=ours", "榜单来源只能是 plays（本站播放）或 site（站点自己的榜单）"],
      ["?board=site&board=plays", "榜单来源只能是 plays（本站播放）或 site（站点自己的榜单）"],
      ["?site=local&board=site", "local 没有站点自己的榜单，请选择 djuu、172minx 或 vvvdj"],
      ["?type=single&period=day&board=site", "单曲榜没有日榜，请选择 week、month 或 quarter"],
    ];
    for (const [query, msg] of cases) {
      const res = await getrank(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toMatchObject({ code: 0, msg });
    }
  });
});
