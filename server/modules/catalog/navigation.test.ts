import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { categories } from "../../db/schema/index.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { buildTopNav, navigationService } from "./navigation-service.js";
import { inProcessBus } from "../../events/bus.js";
import { registryFollowing } from "../../lib/cache-tags.js";
import { catalogueWriteService } from "../catalogue-write/service.js";

describe("buildTopNav", () => {
  const row = (id: number, name: string, parentId: number | null = null) => ({ id, name, diyname: `c${id}`, parentId, icon: null });

  it("puts 首页 first, then top-level categories with their children as submenus, in the given order", () => {
    const nav = buildTopNav([row(1, "DJ串烧"), row(2, "慢摇串烧", 1), row(3, "DJ单曲"), row(4, "中文Remix", 3), row(5, "迪高串烧", 1)]);
    expect(nav).toEqual([
      { label: "首页", to: "/" },
      {
        label: "DJ串烧",
        to: "/sort/c1",
        items: [
          { label: "慢摇串烧", to: "/sort/c2" },
          { label: "迪高串烧", to: "/sort/c5" },
        ],
      },
      { label: "DJ单曲", to: "/sort/c3", items: [{ label: "中文Remix", to: "/sort/c4" }] },
    ]);
  });

  it("promotes a child whose parent is not listed (disabled) to the top level", () => {
    expect(buildTopNav([row(4, "中文Remix", 3)])).toEqual([
      { label: "首页", to: "/" },
      { label: "中文Remix", to: "/sort/c4" },
    ]);
  });
});

describe.each(testEngines())("GET /api/forntend/gettopnav on %s", (engine) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(engine);
    const { writes } = t.app.services;
    const [parent] = await writes.createCategories([{ name: "DJ串烧", diyname: "chuanshao", sort: 1 }]);
    await writes.createCategories([
      { name: "慢摇串烧", diyname: "manyao", parentId: parent.id, sort: 2 },
      { name: "喊麦串烧", diyname: "hanmai", parentId: parent.id, sort: 1 },
      { name: "隐藏分类", diyname: "hidden", parentId: parent.id, sort: 3, enabled: false },
      { name: "中文慢歌", diyname: "zhongwenmange", sort: 5 },
    ]);
  });

  afterAll(() => t?.close());

  it("answers the menu built from enabled categories in sort order", async () => {
    const res = await t.app.inject("/api/forntend/gettopnav");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      code: 1,
      data: [
        { label: "首页", to: "/" },
        {
          label: "DJ串烧",
          to: "/sort/chuanshao",
          items: [
            { label: "喊麦串烧", to: "/sort/hanmai" },
            { label: "慢摇串烧", to: "/sort/manyao" },
          ],
        },
        { label: "中文慢歌", to: "/sort/zhongwenmange" },
      ],
    });
  });

  it("keeps the menu until a category changes through the write service, and a minute at most otherwise", async () => {
    let clock = 0;
    const bus = inProcessBus();
    const nav = navigationService(t.database.db, { caches: registryFollowing(bus, { now: () => clock }) });
    const writes = catalogueWriteService(t.database.db, bus);
    const [{ id }] = await t.database.db.select({ id: categories.id }).from(categories).where(eq(categories.diyname, "zhongwenmange"));
    expect((await nav.topNav()).map((i) => i.label)).toContain("中文慢歌");
    await writes.updateCategory(id, { enabled: false });
    expect((await nav.topNav()).map((i) => i.label)).not.toContain("中文慢歌");
    // By hand in SQL: seen after the minute.
    await t.database.db.execute(sql`update categories set enabled = true where id = ${id}`); // behind the write service's back
    clock += 30_000;
    expect((await nav.topNav()).map((i) => i.label)).not.toContain("中文慢歌");
    clock += 31_000;
    expect((await nav.topNav()).map((i) => i.label)).toContain("中文慢歌");
  });
});
