import { envelopeSchema } from "@contracts/envelope";
import { musicInfoSchema, sortDjList } from "@contracts/suite";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoMediaFixture } from "../../db/seed/demo-media.fixture.js";
import { seedDemoCatalogue } from "../../db/seed/index.js";
import { items } from "../../db/schema/index.js";
import { queryRows } from "../../db/sql.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { suiteRepo } from "./suite-repo.js";
import { suiteService } from "./suite-service.js";
import { testVisitor } from "../../testing/visitors.js";
import { chinaDay } from "../../lib/china-day.js";
import { CacheRegistry } from "../../lib/cache.js";

describe("file tree order and visitors", () => {
  it("sorts labels in Chinese locale with numeric order, at every level", () => {
    const sorted = sortDjList([
      { label: "10.慢摇" },
      { label: "2.开场" },
      { label: "B面", items: [{ label: "12" }, { label: "3" }] },
      { label: "A面" },
    ]);
    expect(sorted.map((n) => n.label)).toEqual(["2.开场", "10.慢摇", "A面", "B面"]);
    expect(sorted[3].items!.map((n) => n.label)).toEqual(["3", "12"]);
  });

  it("counts days in China time", () => {
    expect(chinaDay(new Date("2026-11-21T16:30:00Z"))).toBe("2026-11-22");
    expect(chinaDay(new Date("2026-11-21T15:30:00Z"))).toBe("2026-11-21");
  });
});

describe.each(testEngines())("GET /api/forntend/getmusicinfo and the view beacon on %s", (engine) => {
  let t: TestApp;
  let mixId: number;
  let timedMixId: number;

  /** The kept suite answers, cleared by hand where a test needs the row read again. */
  const keptSuites = () => t.app.services.caches.get("suites")!;

  beforeAll(async () => {
    t = await createTestApp(engine);
    await seedDemoCatalogue(t.database, { media: demoMediaFixture, suites: 12, singles: 4, plays: 0, writes: t.app.services.writes });
    [{ id: mixId }] = await queryRows<{ id: number }>(
      t.database.db,
      sql`select id from items where kind = 'mix' and track_count > 3 order by id limit 1`,
    );
    [{ id: timedMixId }] = await queryRows<{ id: number }>(
      t.database.db,
      sql`select id from items where djlist::text like '%"start"%' order by id limit 1`,
    );
  });

  afterAll(() => t?.close());

  const get = (query: string, cookie?: string) =>
    t.app.inject({ url: `/api/forntend/getmusicinfo?${query}`, headers: cookie ? { cookie } : {} });
  /** A returning visitor's signed cookie. */
  const vid = (name: string) => testVisitor(t.app, name).cookie;
  const view = (id: number, cookie?: string) =>
    t.app.inject({ method: "POST", url: "/api/forntend/view", payload: { id }, headers: cookie ? { cookie } : {} });
  const stored = async (id: number) => {
    const [row] = await queryRows<{ views: number; waiting: number }>(
      t.database.db,
      sql`select i.view_count as views, coalesce((select d.views from item_view_deltas d where d.item_id = i.id), 0) as waiting
          from items i where i.id = ${id}`,
    );
    return row;
  };
  const storedViews = async (id: number) => {
    const { views, waiting } = await stored(id);
    return views + waiting;
  };

  it("answers the detail data with a sorted tree and the real audio-file count", async () => {
    const res = await get(`id=${mixId}`);
    expect(res.statusCode).toBe(200);
    const { code, data } = res.json();
    expect(code).toBe(1);
    expect(data).toMatchObject({ id: mixId, url: `/sutie/${mixId}.html`, kind: "mix" });
    expect(data.channel.url).toMatch(/^\/sort\/[a-z]+$/);
    expect(["djuu", "172minx", "vvvdj", "local"]).toContain(data.website.code);
    expect(data.djlist).toEqual(sortDjList(data.djlist));
    const [{ trackCount }] = await t.database.db.select({ trackCount: items.trackCount }).from(items).where(eq(items.id, mixId));
    expect(data.audioFiles).toBe(trackCount);
    expect(data.audioFiles).not.toBe(15);
  });

  it("sends the same answer gzip-compressed to clients that take it, valid against its schema", async () => {
    const plain = await get(`id=${mixId}`, vid("gzip"));
    const gz = await t.app.inject({
      url: `/api/forntend/getmusicinfo?id=${mixId}`,
      headers: { cookie: vid("gzip"), "accept-encoding": "gzip, deflate" },
    });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    const body = JSON.parse(gunzipSync(gz.rawPayload).toString());
    expect(body).toEqual(plain.json());
    const br = await t.app.inject({ url: `/api/forntend/getmusicinfo?id=${mixId}`, headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(body);
    expect(envelopeSchema(musicInfoSchema).parse(body).data.views).toBe(plain.json().data.views);
  });

  it("keeps track start times in the tree for the player's tracklist", async () => {
    const { data } = (await get(`id=${timedMixId}`)).json();
    expect(JSON.stringify(data.djlist)).toMatch(/"start":\d+/);
  });

  it("counts no view for GETs: 60 cookie-less GETs of the API add nothing (the page's: page-cache.test.ts)", async () => {
    await t.app.services.suites.flushViews();
    const before = await storedViews(mixId);
    for (let i = 0; i < 60; i++) expect((await get(`id=${mixId}`)).statusCode).toBe(200);
    await t.app.services.suites.flushViews();
    expect(await storedViews(mixId)).toBe(before);
    expect((await t.app.services.suites.current(mixId)).views).toBe(before);
  });

  it("answers the same bytes to every visitor, with an ETag and a 304", async () => {
    const a = await get(`id=${mixId}`, vid("bytes_a"));
    const b = await get(`id=${mixId}`);
    expect(b.body).toBe(a.body);
    expect(a.headers.etag).toBeTruthy();
    expect(b.headers.etag).toBe(a.headers.etag);
    expect(a.headers["set-cookie"]).toBeUndefined(); // the API issues no visitor cookie: the page does
    const again = await t.app.inject({ url: `/api/forntend/getmusicinfo?id=${mixId}`, headers: { "if-none-match": String(a.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it("the view beacon counts once per visitor per day, answered with the exact count once it is committed", async () => {
    const before = (await t.app.services.suites.current(mixId)).views;
    const first = await view(mixId, vid("beacon_one"));
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ code: 1, data: { id: mixId, views: before + 1, counted: true } });
    // Answered after the commit: the row already holds it (nothing waiting in the buffer).
    expect(t.app.services.views.pendingFor(mixId)).toBe(0);
    expect(await storedViews(mixId)).toBe(before + 1);
    const again = await view(mixId, vid("beacon_one"));
    expect(again.json().data).toEqual({ id: mixId, views: before + 1, counted: false });
    expect((await view(mixId, vid("beacon_two"))).json().data.views).toBe(before + 2);
    // Tomorrow the same visitor counts again.
    const another = testVisitor(t.app, "beacon_two");
    const tomorrow = suiteService(t.database.db, {
      caches: new CacheRegistry(),
      views: t.app.services.views,
      now: () => new Date(Date.now() + 24 * 3600 * 1000),
    });
    expect(await tomorrow.view(mixId, another.id)).toMatchObject({ views: before + 3, counted: true });
    // Today's views are still remembered once tomorrow has begun (requests racing midnight).
    expect((await view(mixId, another.cookie)).json().data).toMatchObject({ views: before + 3, counted: false });
  });

  it("a beacon without a valid visitor cookie counts nothing: 403 with a Chinese message and the count", async () => {
    await t.app.services.suites.flushViews();
    const before = await storedViews(mixId);
    for (const cookie of [undefined, "vid=chosen_by_the_client_1234", `${vid("forged")}x`]) {
      const res = await view(mixId, cookie);
      expect(res.statusCode, cookie).toBe(403);
      expect(res.json(), cookie).toMatchObject({ code: 0, msg: "浏览未计入：缺少有效的访客标识，请开启Cookie后刷新页面", data: { id: mixId, views: before, counted: false } });
      expect(res.headers["set-cookie"]).toBeUndefined();
    }
    await t.app.services.suites.flushViews();
    expect(await storedViews(mixId)).toBe(before);
  });

  it("a beacon for a missing suite is 404 数据不存在, a bad id 400 页面不存在, never a 500", async () => {
    expect((await view(99999999, vid("missing"))).json()).toMatchObject({ code: 0, msg: "数据不存在" });
    for (const body of [{ id: "abc" }, { id: -1 }, {}, { id: 1.5 }, { id: 99999999999 }]) {
      const res = await t.app.inject({ method: "POST", url: "/api/forntend/view", payload: body, headers: { cookie: vid("bad") } });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().msg).toBe("页面不存在");
    }
  });

  it("keeps the count exact while a suite's data is shared, across group commits and re-reads", async () => {
    const shown = async (name: string) => (await view(mixId, vid(name))).json().data.views as number;
    const a = await shown("share_visitor_aaaaaa01");
    expect(await shown("share_visitor_aaaaaa02")).toBe(a + 1);
    expect(await shown("share_visitor_aaaaaa02")).toBe(a + 1);
    expect(await shown("share_visitor_aaaaaa03")).toBe(a + 2);
    keptSuites().clear(); // read again: the written views are now in the row
    expect(await shown("share_visitor_aaaaaa03")).toBe(a + 2);
    keptSuites().clear();
    expect(await shown("share_visitor_aaaaaa01")).toBe(a + 2);
  });

  it("writes concurrent views together (group commit): stored once per visitor per day, folded exactly", async () => {
    await t.app.services.suites.flushViews();
    await t.app.services.suites.foldViews();
    const start = await stored(mixId);
    expect(start.waiting).toBe(0);
    // 20 visitors at once, each twice: 20 views, every beacon answered after its commit.
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => view(mixId, vid(`group_${i % 20}`))));
    expect(answers.every((r) => r.statusCode === 200)).toBe(true);
    expect(answers.filter((r) => r.json().data.counted)).toHaveLength(20);
    // Written to the narrow delta row; items.view_count (lists, "hot" order) gets them at the fold.
    expect(await stored(mixId)).toEqual({ views: start.views, waiting: 20 });
    await t.app.services.suites.foldViews();
    expect(await stored(mixId)).toEqual({ views: start.views + 20, waiting: 0 });
    // A re-read after the fold shows the same count: nothing is counted twice or lost.
    keptSuites().clear();
    expect((await view(mixId, vid("group_0"))).json().data.views).toBe(start.views + 20);
  });

  it("folds waiting views in chunks, every item's count growing by exactly its views", async () => {
    const ids = (await queryRows<{ id: number }>(t.database.db, sql`select id from items order by id limit 120`)).map((r) => r.id);
    const counts = async () =>
      new Map(
        (
          await queryRows<{ id: number; n: number }>(
            t.database.db,
            sql`select id, view_count as n from items where id in ${sql.raw(`(${ids.join(",")})`)}`,
          )
        ).map((r) => [r.id, r.n]),
      );
    await t.app.services.suites.flushViews();
    await t.app.services.suites.foldViews();
    const before = await counts();
    await suiteRepo(t.database.db).addViewCounts(ids.map((id, i) => ({ itemId: id, day: "2026-01-01", views: 1 + (i % 3) })));
    await t.app.services.suites.foldViews(); // 120 items: twelve chunks
    const after = await counts();
    for (const [i, id] of ids.entries()) expect(after.get(id), String(id)).toBe(before.get(id)! + 1 + (i % 3));
    expect((await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from item_view_deltas`))[0].n).toBe(0);
  });

  it("answers 404 数据不存在 for a missing or hidden item, and changes nothing", async () => {
    const res = await get("id=99999999");
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 0, msg: "数据不存在" });
    const views = async () =>
      (
        await queryRows<{ n: number }>(
          t.database.db,
          sql`select view_count + coalesce((select views from item_view_deltas where item_id = ${timedMixId}), 0) as n from items where id = ${timedMixId}`,
        )
      )[0].n;
    await t.app.services.writes.setItemsStatus([timedMixId], "hidden");
    await t.app.services.suites.flushViews();
    const before = await views();
    expect((await get(`id=${timedMixId}`)).json().msg).toBe("数据不存在");
    expect(await views()).toBe(before);
  });

  it("keeps a suite's data until a write through the write service changes it: then the next request shows it", async () => {
    const [{ id }] = await queryRows<{ id: number }>(
      t.database.db,
      sql`select id from items where status <> 'hidden' order by id desc limit 1`,
    );
    const title = async () => (await get(`id=${id}`)).json().data.title;
    const before = await title();
    await t.database.db.execute(sql`update items set title = '手改标题' where id = ${id}`); // behind the write service's back
    expect(await title()).toBe(before); // kept: no query per request (and not told of writes behind the service's back)
    await t.app.services.writes.updateItem(id, { title: "夜曲 改名 测试" });
    expect(await title()).toBe("夜曲 改名 测试");
    await t.app.services.writes.updateItem(id, { title: before });
    expect(await title()).toBe(before);
  });

  it("answers 400 页面不存在 for ids that are not positive whole numbers", async () => {
    for (const q of ["id=abc", "id=-1", "id=0", "id=1.5", "", "id=99999999999", "id=1%20or%201=1", "id=<b>"]) {
      const res = await get(q);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().msg, q).toBe("页面不存在");
    }
  });
});
