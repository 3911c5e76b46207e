import { RELATED_LINES } from "@contracts/related";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoMediaFixture } from "../../db/seed/demo-media.fixture.js";
import { seedDemoCatalogue } from "../../db/seed/index.js";
import { categories } from "../../db/schema/index.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";

interface Line {
  id: number;
  name: string;
  artist: string;
  category: string;
  url: string;
}

describe.each(testEngines())("GET /api/forntend/related on %s", (engine) => {
  let t: TestApp;
  let club: number;
  let edm: number;
  const ids: Record<string, number> = {};

  const related = async (id: number | string) => {
    const res = await t.app.inject(`/api/forntend/related?id=${id}`);
    return { status: res.statusCode, body: res.json() as { code: number; msg: string; data: { artist: string; byArtist: Line[]; related: Line[] } } };
  };

  beforeAll(async () => {
    t = await createTestApp(engine);
    await seedDemoCatalogue(t.database, { media: demoMediaFixture, suites: 12, singles: 4, plays: 0, writes: t.app.services.writes });
    const categoryId = async (diyname: string) => (await t.database.db.select().from(categories).where(eq(categories.diyname, diyname)))[0].id;
    club = await categoryId("club");
    edm = await categoryId("edm");
    const add = (key: string, title: string, artist: string, categoryId: number, minutes: number) =>
      t.app.services.writes
        .createItem({ kind: "mix", title, artist, playUrl: "/media/demo/audio/loop-1.mp3", sourceSite: "local", categoryId, publishedAt: new Date(Date.now() - minutes * 60_000) })
        .then((id) => void (ids[key] = id));
    await add("main", "武汉夜店慢摇串烧第一辑", "DJ阿华_测", club, 10);
    await add("older", "阿华私人订制串烧", "DJ阿华_测", club, 20);
    await add("elsewhere", "电音节现场串烧", "DJ阿华_测", edm, 5);
    await add("alike", "武汉夜店慢摇串烧第二辑", "DJ小鱼", club, 30);
    // Same letters apart from the LIKE wildcard: not the same artist.
    await add("wildcard", "别的串烧", "DJ阿华%测", club, 1);
  });

  afterAll(() => t?.close());

  it("lists the artist's other items, newest first, in any category, and not the suite itself", async () => {
    const { status, body } = await related(ids.main);
    expect(status).toBe(200);
    expect(body.data.artist).toBe("DJ阿华_测");
    expect(body.data.byArtist.map((l) => l.id)).toEqual([ids.elsewhere, ids.older]);
    expect(body.data.byArtist.every((l) => l.artist === "DJ阿华_测" && l.url === `/sutie/${l.id}.html`)).toBe(true);
  });

  it("recommends other items of the suite's category, the most alike in title first, none listed twice", async () => {
    const { body } = await related(ids.main);
    const list = body.data.related;
    expect(list.length).toBeGreaterThan(1);
    expect(list.length).toBeLessThanOrEqual(RELATED_LINES);
    expect(list[0].id).toBe(ids.alike);
    const shown = [ids.main, ...body.data.byArtist.map((l) => l.id)];
    expect(list.some((l) => shown.includes(l.id))).toBe(false);
    const clubName = (await t.database.db.select().from(categories).where(eq(categories.id, club)))[0].name;
    expect(list.every((l) => l.category === clubName)).toBe(true);
  });

  it("drops what it kept when a listed item changes", async () => {
    await related(ids.main);
    await t.app.services.writes.updateItem(ids.older, { title: "阿华私人订制串烧（重制版）" });
    const { body } = await related(ids.main);
    expect(body.data.byArtist.find((l) => l.id === ids.older)?.name).toBe("阿华私人订制串烧（重制版）");
    await t.app.services.writes.setItemsStatus([ids.elsewhere], "hidden");
    expect((await related(ids.main)).body.data.byArtist.map((l) => l.id)).toEqual([ids.older]);
  });

  it("has no 'more by' list for the default artist", async () => {
    const id = await t.app.services.writes.createItem({ kind: "mix", title: "无名串烧", playUrl: "/media/demo/audio/loop-1.mp3", sourceSite: "local", categoryId: club });
    const { body } = await related(id);
    expect(body.data.artist).toBe("");
    expect(body.data.byArtist).toEqual([]);
  });

  it("answers a bad id 400 页面不存在 and a missing or hidden suite 404 数据不存在", async () => {
    for (const bad of ["abc", "0", "-1", "1.5", "99999999999"]) {
      const { status, body } = await related(bad);
      expect(status, bad).toBe(400);
      expect(body.msg).toBe("页面不存在");
    }
    const missing = await related(2_000_000_000);
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toBe("数据不存在");
    const hidden = await related(ids.elsewhere);
    expect(hidden.status).toBe(404);
  });
});
