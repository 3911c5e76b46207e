import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoMediaFixture } from "../../db/seed/demo-media.fixture.js";
import { seedDemoCatalogue } from "../../db/seed/index.js";
import { blocks, categories } from "../../db/schema/index.js";
import { queryRows } from "../../db/sql.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";

interface Item {
  id: number;
  name: string;
  time: number;
  cidurl: string;
}
interface Section {
  name: string;
  diyname: string;
  cidurl: string;
  list: Item[];
}

describe.each(testEngines())("GET /api/forntend/index on %s", (engine) => {
  let t: TestApp;
  /** The page is kept until a change event (tests write through the write service). */
  const home = async () => {
    const res = await t.app.inject("/api/forntend/index");
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  const ids = (list: Item[]) => list.map((i) => i.id);
  const sortPage = async (diyname: string) => (await t.app.inject(`/api/forntend/getsort?diyname=${diyname}`)).json().data.list as Item[];
  const one = async <T>(query: string) => (await queryRows<{ v: T }>(t.database.db, sql.raw(query)))[0].v;

  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(() => t?.close());

  it("is in the OpenAPI document with its top-level SEO texts", async () => {
    const doc = (await t.app.inject("/api/docs/json")).json();
    const schema = doc.paths["/api/forntend/index"].get.responses["200"].content["application/json"].schema;
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(["code", "title", "keywords", "description", "data"]));
  });

  it("answers an empty catalogue with empty lists, not an error", async () => {
    const body = await home();
    expect(body).toMatchObject({ code: 1, title: "DJ搜索引擎网" });
    expect(body.data).toMatchObject({ data: [], favorites: [], suitelist: [], suitelistx: [], indexfocus: [], total: 0 });
    expect(body.data.channel).toEqual([{ code: "", name: "全部" }, ...body.data.siteweblist.map(({ code, name }: { code: string; name: string }) => ({ code, name }))]);
  });

  describe("with the demo catalogue", () => {
    beforeAll(async () => {
      await seedDemoCatalogue(t.database, { media: demoMediaFixture, suites: 80, singles: 40, plays: 0, writes: t.app.services.writes });
    });

    it("puts the SEO texts beside data, and the carousel and partner logos of enabled blocks", async () => {
      const body = await home();
      expect(body.keywords).toContain("DJ");
      expect(body.description).toContain("DJ搜索引擎网");
      expect(body.data.indexfocus.length).toBe(3);
      expect(body.data.indexfocus.map((s: { name: string }) => s.name)).not.toContain("旧活动");
      expect(body.data.indexfocus[0]).toMatchObject({ image: expect.stringMatching(/banner/), url: expect.stringMatching(/^\/sort\//) });
      expect(body.data.indexweb.map((s: { name: string }) => s.name)).toEqual(body.data.siteweblist.map((s: { name: string }) => s.name));
      expect(body.data.siteweblist.map((s: { code: string }) => s.code)).toEqual(expect.arrayContaining(["djuu", "172minx", "vvvdj", "local"]));
      expect(body.data.total).toBe(await one<number>("select count(*)::int as v from items where status = 'normal'"));
    });

    it("recommends only recommended items, newest first, at most 12", async () => {
      const { data } = await home();
      const recommended = await one<number>("select count(*)::int as v from items where recommended and status = 'normal'");
      expect(data.data.length).toBe(Math.min(12, recommended));
      const flagged = await queryRows<{ id: number }>(t.database.db, sql`select id from items where recommended`);
      expect(ids(data.data).every((id) => flagged.some((r) => r.id === id))).toBe(true);
      const times = data.data.map((i: Item) => i.time);
      expect(times).toEqual([...times].sort((a, b) => b - a));
    });

    it("lists the newest items of each menu group and each category, the same as their category pages", async () => {
      const { data } = await home();
      expect(data.suitelist.map((s: Section) => s.name)).toEqual(["DJ串烧", "DJ单曲", "慢歌"]);
      for (const group of data.suitelist as Section[]) {
        expect(group.cidurl).toBe(`/sort/${group.diyname}`);
        expect(ids(group.list)).toEqual(ids(await sortPage(group.diyname)));
      }
      expect(data.suitelistx.length).toBe(16);
      expect(data.categories.map((c: { diyname: string }) => c.diyname)).toEqual(data.suitelistx.map((s: Section) => s.diyname));
      for (const category of (data.suitelistx as Section[]).slice(0, 6)) {
        expect(ids(category.list)).toEqual(ids((await sortPage(category.diyname)).slice(0, 6)));
        expect(category.list.every((i) => i.cidurl === category.cidurl)).toBe(true);
      }
    });

    it("ranks the favourites tab by favourite count, ties to the newer item", async () => {
      const picked = await queryRows<{ id: number }>(t.database.db, sql`select id from items where status = 'normal' order by id limit 3`);
      const [a, b, c] = picked.map((r) => r.id);
      const counts = await queryRows<{ id: number; n: number }>(t.database.db, sql`select id, favorite_count as n from items`);
      const wanted = new Map([[a, 5], [b, 9], [c, 9]]);
      await t.app.services.writes.transaction(async (w) => {
        for (const { id, n } of counts) if ((wanted.get(id) ?? 0) !== n) await w.addToItemCounts(id, { favorites: (wanted.get(id) ?? 0) - n });
      });
      const { data } = await home();
      expect(ids(data.favorites)).toEqual([c, b, a]);
    });

    it("leaves out hidden items, disabled categories and disabled blocks", async () => {
      const before = await home();
      const shown = before.data.suitelist[0].list[0] as Item;
      const { writes } = t.app.services;
      await writes.setItemsStatus([shown.id], "hidden");
      const [digao] = await t.database.db.select().from(categories).where(eq(categories.diyname, "digao"));
      await writes.updateCategory(digao.id, { enabled: false });
      for (const block of await t.database.db.select().from(blocks).where(eq(blocks.position, "indexweb"))) {
        await writes.updateBlock(block.id, { status: false });
      }
      const { data } = await home();
      expect(ids(data.suitelist[0].list)).not.toContain(shown.id);
      expect(data.total).toBe(before.data.total - 1);
      expect(data.suitelistx.map((s: Section) => s.diyname)).not.toContain("digao");
      expect(data.suitelist[0].list.some((i: Item) => i.cidurl === "/sort/digao")).toBe(false);
      expect(data.indexweb).toEqual([]);
    });

    it("keeps the page until a write through the write service changes what it shows", async () => {
      const before = await home();
      const visible = await queryRows<{ id: number }>(t.database.db, sql`select id from items where status = 'normal'`);
      // By hand in SQL the kept page stands (until its 30 s are up) ...
      await t.database.db.execute(sql`update items set status = 'hidden' where status = 'normal'`); // behind the write service's back
      expect((await home()).data.total).toBe(before.data.total);
      // A site's collected chart is not on the home page: storing one keeps the page too.
      t.app.services.charts.sourceChartsChanged("djuu");
      expect((await home()).data.total).toBe(before.data.total);
      // ... a write through it shows on the very next request.
      await t.app.services.writes.setItemsStatus(visible.map((r) => r.id), "hidden");
      expect((await home()).data.total).toBe(0);
    });
  });
});

describe("GET /api/forntend/index when the database fails", () => {
  it("answers 500 服务器内部错误 without internals, and recovers once the cause is gone", async () => {
    const t = await createTestApp("pglite");
    try {
      await t.database.db.execute(sql`alter table block_items rename to block_items_away`);
      const res = await t.app.inject("/api/forntend/index");
      expect(res.statusCode).toBe(500);
      expect(res.json()).toMatchObject({ code: 0, msg: "服务器内部错误" });
      expect(res.body).not.toContain("block_items");
      await t.database.db.execute(sql`alter table block_items_away rename to block_items`);
      expect((await t.app.inject("/api/forntend/index")).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
