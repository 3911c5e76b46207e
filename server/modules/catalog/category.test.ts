import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoMediaFixture } from "../../db/seed/demo-media.fixture.js";
import { seedDemoCatalogue } from "../../db/seed/index.js";
import { categories } from "../../db/schema/index.js";
import { queryRows } from "../../db/sql.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { SORT_ANSWER_MAX_BYTES } from "./category-answers.js";
import { testEngines } from "../../testing/test-db.js";

describe.each(testEngines())("GET /api/forntend/getsort on %s", (engine) => {
  let t: TestApp;
  const get = (query: string) => t.app.inject(`/api/forntend/getsort?${query}`);
  const count = async (where: string) =>
    (
      await queryRows<{ n: number }>(
        t.database.db,
        sql.raw(`select count(*)::int as n from items i join categories c on c.id = i.category_id where i.status = 'normal' and ${where}`),
      )
    )[0].n;

  const categoryId = async (diyname: string) =>
    (await t.database.db.select({ id: categories.id }).from(categories).where(eq(categories.diyname, diyname)))[0].id;

  beforeAll(async () => {
    t = await createTestApp(engine);
    await seedDemoCatalogue(t.database, { media: demoMediaFixture, suites: 130, singles: 30, plays: 0, writes: t.app.services.writes });
  });

  afterAll(() => t?.close());

  it("answers a page of 10 newest items with the category's SEO texts, model_id and charts sidebar", async () => {
    const res = await get("diyname=manyao");
    expect(res.statusCode).toBe(200);
    const { code, data } = res.json();
    expect(code).toBe(1);
    expect(data).toMatchObject({ categoryname: "慢摇串烧", cidurl: "/sort/manyao", model_id: 2, page: 1, pageSize: 10 });
    expect(data.title).toContain("慢摇串烧");
    expect(data.total).toBe(await count("c.diyname = 'manyao'"));
    expect(data.list.length).toBe(Math.min(10, data.total));
    const times = data.list.map((i: { time: number }) => i.time);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(data.list.every((i: { cidurl: string }) => i.cidurl === "/sort/manyao")).toBe(true);
    expect(Object.keys(data.side)).toEqual(expect.arrayContaining(["djuu", "172minx", "vvvdj"]));
  });

  it("strips a trailing .html, pages without overlap, and sorts by views with filter=hot", async () => {
    const total = (await get("diyname=manyao")).json().data.total;
    const one = (await get("diyname=manyao.html&page=1")).json().data.list.map((i: { id: number }) => i.id);
    const two = (await get("diyname=manyao&page=2")).json().data.list.map((i: { id: number }) => i.id);
    expect(one.filter((id: number) => two.includes(id))).toEqual([]);
    expect(one.length + two.length).toBe(Math.min(20, total));
    const hot = (await get("diyname=manyao&filter=hot")).json().data.list.map((i: { view_count: number }) => i.view_count);
    expect(hot).toEqual([...hot].sort((a, b) => b - a));
  });

  it("a menu group lists its children's items; hidden items and disabled children are left out", async () => {
    const group = (await get("diyname=chuanshao")).json().data;
    expect(group.total).toBe(await count("c.parent_id = (select id from categories where diyname = 'chuanshao')"));
    const [first] = (await get("diyname=manyao")).json().data.list;
    await t.app.services.writes.setItemsStatus([first.id], "hidden");
    expect((await get("diyname=manyao")).json().data.list.map((i: { id: number }) => i.id)).not.toContain(first.id);
    await t.app.services.writes.updateCategory(await categoryId("digao"), { enabled: false });
    const after = (await get("diyname=chuanshao")).json().data;
    expect(after.list.every((i: { cidurl: string }) => i.cidurl !== "/sort/digao")).toBe(true);
  });

  it("answers 404 分类不存在 for a missing, disabled or malformed category", async () => {
    for (const q of ["diyname=nope", "diyname=digao", "diyname=../etc", "diyname=%3Cscript%3E", "diyname=' or 1=1 --", "diyname="]) {
      const res = await get(q);
      expect(res.statusCode, q).toBe(404);
      expect(res.json().msg, q).toBe("分类不存在");
    }
  });

  it("answers 400 for bad pages and filters, never 500", async () => {
    for (const q of ["page=0", "page=-1", "page=abc", "page=1001", "page=1.5"]) {
      const res = await get(`diyname=manyao&${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().msg, q).toBe("页码必须是1到1000之间的整数");
    }
    const res = await get("diyname=manyao&filter=drop");
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe("排序方式只能是 new（最新）或 hot（最热）");
    const noName = await t.app.inject("/api/forntend/getsort");
    expect(noName.statusCode).toBe(400);
    expect(noName.json().msg).toBe("分类不存在");
  });

  it("pages a menu group in one order across its children, as one sort of all its items would", async () => {
    // Equal publish times across children, so the id tie-break decides between categories too.
    const dates = await queryRows<{ id: number; day: Date }>(t.database.db, sql`select id, date_trunc('day', published_at) as day from items`);
    await t.app.services.writes.transaction(async (w) => {
      for (const { id, day } of dates) await w.updateItem(id, { publishedAt: new Date(day) });
    });
    for (const filter of ["new", "hot"] as const) {
      const order = filter === "hot" ? "i.view_count desc, i.id desc" : "i.published_at desc, i.id desc";
      const all = await queryRows<{ id: number }>(
        t.database.db,
        sql.raw(`select i.id from items i join categories c on c.id = i.category_id
                  where i.status = 'normal' and c.enabled and c.parent_id = (select id from categories where diyname = 'chuanshao')
                  order by ${order}`),
      );
      // Past page 10 the pages are slices of the kept order: the same sequence either way.
      expect(all.length).toBeGreaterThan(110);
      const pageIds = async (page: number) =>
        ((await get(`diyname=chuanshao&filter=${filter}&page=${page}`)).json().data.list as { id: number }[]).map((i) => i.id);
      const paged: number[] = [];
      for (let page = 1; page <= Math.ceil(all.length / 10) + 1; page++) paged.push(...(await pageIds(page)));
      expect(paged, filter).toEqual(all.map((r) => r.id));
      // Hiding an item of page 11 shows on the next request of that page (the order is dropped).
      const hidden = all[104].id;
      await t.app.services.writes.setItemsStatus([hidden], "hidden");
      expect(await pageIds(11), filter).toEqual(all.filter((r) => r.id !== hidden).slice(100, 110).map((r) => r.id));
      await t.app.services.writes.setItemsStatus([hidden], "normal");
    }
  });

  it("keeps the categories until a write through the write service changes one", async () => {
    const name = async () => (await get("diyname=manyao")).json().data.categoryname;
    const before = await name();
    // By hand in SQL, the kept answer stands ...
    await t.database.db.execute(sql`update categories set name = '慢摇手改' where diyname = 'manyao'`); // behind the write service's back
    expect(await name()).toBe(before);
    // ... and a write through it shows on the very next request.
    await t.app.services.writes.updateCategory(await categoryId("manyao"), { name: "慢摇新名" });
    expect(await name()).toBe("慢摇新名");
    await t.app.services.writes.updateCategory(await categoryId("manyao"), { name: before });
  });

  it("lists every enabled category with its number of pages (the pre-render's list)", async () => {
    const listed = await t.app.services.categories.listed();
    const enabled = await queryRows<{ diyname: string }>(t.database.db, sql`select diyname from categories where enabled order by diyname`);
    expect(listed.map((c) => c.diyname).sort()).toEqual(enabled.map((c) => c.diyname));
    for (const { diyname, pages } of listed) {
      const { total } = (await get(`diyname=${diyname}`)).json().data;
      expect(pages, diyname).toBe(Math.max(1, Math.ceil(total / 10)));
    }
  });

  it("a page past the end is empty but keeps the total", async () => {
    const { data } = (await get("diyname=manyao&page=1000")).json();
    expect(data.list).toEqual([]);
    expect(data.total).toBeGreaterThan(0);
  });

  it("keeps page answers within a byte cap, counting what each holds (plain for clients without compression)", async () => {
    const pages = t.app.services.caches.get("category-pages")!;
    const before = pages.stats().bytes;
    const plain = await t.app.inject({ url: "/api/forntend/getsort?diyname=hanmai&page=2", headers: { "accept-encoding": "identity" } });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const stats = pages.stats();
    expect(stats.maxBytes).toBe(SORT_ANSWER_MAX_BYTES);
    expect(stats.bytes - before).toBeGreaterThanOrEqual(plain.rawPayload.length);
    expect(stats.bytes).toBeLessThanOrEqual(SORT_ANSWER_MAX_BYTES);
  });
});
