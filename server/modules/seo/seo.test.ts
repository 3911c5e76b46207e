import { gunzipSync } from "node:zlib";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoMediaFixture } from "../../db/seed/demo-media.fixture.js";
import { seedDemoCatalogue } from "../../db/seed/index.js";
import { categories } from "../../db/schema/index.js";
import { queryRows } from "../../db/sql.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";

const BASE = "http://localhost:3000";

describe.each(testEngines())("robots.txt and sitemaps on %s", (engine) => {
  let t: TestApp;
  let hiddenId: number;
  let visibleIds: number[];

  beforeAll(async () => {
    t = await createTestApp(engine);
    await seedDemoCatalogue(t.database, { media: demoMediaFixture, suites: 12, singles: 6, plays: 0, writes: t.app.services.writes });
    const ids = await queryRows<{ id: number }>(t.database.db, sql`select id from items order by id`);
    hiddenId = ids[0].id;
    visibleIds = ids.slice(1).map((r) => r.id);
    const [hanmai] = await t.database.db.select().from(categories).where(eq(categories.diyname, "hanmai"));
    await t.app.services.writes.setItemsStatus([hiddenId], "hidden");
    await t.app.services.writes.updateCategory(hanmai.id, { enabled: false });
  });

  afterAll(() => t?.close());

  it("robots.txt keeps crawlers out of the back office, user area and API, and names the sitemap", async () => {
    const res = await t.app.inject("/robots.txt");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/plain");
    for (const line of ["Disallow: /panda", "Disallow: /user/", "Disallow: /api/", `Sitemap: ${BASE}/sitemap.xml`]) {
      expect(res.body).toContain(line);
    }
  });

  it("the sitemap index lists the pages sitemap and one items sitemap per 50,000 ids", async () => {
    const res = await t.app.inject("/sitemap.xml");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("application/xml");
    const locs = [...res.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toEqual([`${BASE}/sitemap-pages.xml`, `${BASE}/sitemap-items-1.xml`]);
  });

  it("the pages sitemap has the home page and every enabled category", async () => {
    const body = (await t.app.inject("/sitemap-pages.xml")).body;
    expect(body).toContain(`<loc>${BASE}/</loc>`);
    expect(body).toContain(`<loc>${BASE}/sort/manyao</loc>`);
    expect(body).not.toContain("/sort/hanmai");
    expect(body).toMatch(/<lastmod>\d{4}-\d\d-\d\dT/);
  });

  it("the items sitemap has every visible item's canonical detail page, and no hidden one", async () => {
    const body = (await t.app.inject("/sitemap-items-1.xml")).body;
    for (const id of visibleIds) expect(body).toContain(`<loc>${BASE}/sutie/${id}.html</loc>`);
    expect(body).not.toContain(`/sutie/${hiddenId}.html`);
  });

  it("an items sitemap is kept compressed: gzip when asked, the same bytes again, 304 for its ETag", async () => {
    const first = await t.app.inject({ url: "/sitemap-items-1.xml", headers: { "accept-encoding": "gzip" } });
    expect(first.statusCode).toBe(200);
    expect(first.headers["content-encoding"]).toBe("gzip");
    expect(first.headers["content-type"]).toContain("application/xml");
    expect(gunzipSync(first.rawPayload).toString()).toContain(`<loc>${BASE}/sutie/${visibleIds[0]}.html</loc>`);
    const again = await t.app.inject({ url: "/sitemap-items-1.xml", headers: { "accept-encoding": "gzip" } });
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"/);
    const cached = await t.app.inject({ url: "/sitemap-items-1.xml", headers: { "if-none-match": etag } });
    expect(cached.statusCode).toBe(304);
  });

  it("answers 404 past the last items sitemap and for malformed names", async () => {
    for (const url of ["/sitemap-items-2.xml", "/sitemap-items-0.xml", "/sitemap-items-x.xml", "/sitemap-items-9999999.xml"]) {
      expect((await t.app.inject(url)).statusCode, url).toBe(404);
    }
  });
});
