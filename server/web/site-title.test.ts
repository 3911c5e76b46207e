/**
 * The site title of the settings (站点设置) renames the whole site on the next request (ADR 0066):
 * the navbar brand and the <title> of the home, a category and a suite page, kept pages
 * included, the APIs' SEO titles and the mails. Real app, production web build, kept pages on.
 */
import { profilePaths } from "@contracts/account-profile-texts";
import { eq, sql } from "drizzle-orm";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureWebBuild } from "../../e2e/web-server.js";
import { demoMediaFixture } from "../db/seed/demo-media.fixture.js";
import { seedDemoCatalogue } from "../db/seed/index.js";
import { categories } from "../db/schema/index.js";
import { queryRows } from "../db/sql.js";
import { createTestAdmin } from "../testing/admins.js";
import { lastOutboxMail } from "../testing/mail-codes.js";
import { createTestApp, type TestApp } from "../testing/test-app.js";
import { testEngines } from "../testing/test-db.js";
import { createTestUser } from "../testing/users.js";

const NEW_TITLE = "夜店DJ舞曲站";

describe.each(testEngines())("the site title on every page on %s", (engine) => {
  let t: TestApp;
  let pages: { url: string; title: (site: string) => string }[];
  const html = async (url: string) => {
    const res = await t.app.inject({ url, headers: { "accept-encoding": "gzip" } });
    expect(res.statusCode, url).toBe(200);
    return res.headers["content-encoding"] === "gzip" ? gunzipSync(res.rawPayload).toString() : res.body;
  };
  const titleOf = (page: string) => /<title>([^<]*)<\/title>/.exec(page)?.[1];
  /** The navbar's brand: a link home named by the site title, which it also shows. */
  const brandOf = (page: string) => /<a[^>]*aria-label="([^"]*)"[^>]*href="\/"[^>]*>|<a[^>]*href="\/"[^>]*aria-label="([^"]*)"/.exec(page)?.slice(1).find(Boolean);

  beforeAll(async () => {
    ensureWebBuild();
    t = await createTestApp(engine, { web: true });
    await seedDemoCatalogue(t.database, { media: demoMediaFixture, suites: 12, singles: 4, plays: 0, writes: t.app.services.writes });
    const [manyao] = await t.database.db.select().from(categories).where(eq(categories.diyname, "manyao"));
    const [suite] = await queryRows<{ id: number; title: string }>(t.database.db, sql`select id, title from items where status = 'normal' order by id limit 1`);
    pages = [
      { url: "/", title: (site) => site },
      // The stored SEO title is the category's own part; the site's is appended when it answers.
      { url: "/sort/manyao", title: (site) => `${manyao!.seoTitle} - ${site}` },
      { url: `/site/${suite!.id}.html`, title: (site) => `${suite!.title} - ${site}` },
    ];
    expect(manyao!.seoTitle).not.toContain("DJ搜索引擎网");
  }, 180_000);
  afterAll(() => t?.close());

  it("shows a new title in the navbar brand and every <title> on the next request, kept pages too", async () => {
    for (const { url, title } of pages) {
      const page = await html(url);
      expect(titleOf(page), url).toBe(title("DJ搜索引擎网"));
      expect(brandOf(page), url).toBe("DJ搜索引擎网");
      // Kept: the second request is served from memory (the same bytes).
      expect(await html(url), url).toBe(page);
    }
    const admin = await createTestAdmin(t.database.db, { role: "super" });
    const saved = await t.app.inject({
      method: "PUT",
      url: "/api/pandaadmin/settings",
      headers: admin.headers,
      payload: { ...(await t.app.services.siteSettings.get()), title: NEW_TITLE },
    });
    expect(saved.statusCode).toBe(200);
    for (const { url, title } of pages) {
      const page = await html(url);
      expect(titleOf(page), url).toBe(title(NEW_TITLE));
      expect(brandOf(page), url).toBe(NEW_TITLE);
      expect(page, url).toContain(`>${NEW_TITLE}</span>`);
      // The footer's © line is built from the title too (the description is the settings' own text).
      expect(page, url).toContain(`<p>© ${NEW_TITLE}</p>`);
      expect(page.replace(/<meta name="description"[^>]*>|<script[\s\S]*?<\/script>/g, ""), url).not.toContain("DJ搜索引擎网");
    }
    // The back office's login, outside the admin layout, reads the settings itself.
    expect(titleOf(await html("/panda/login"))).toBe(`后台登录 - ${NEW_TITLE}`);
    // The APIs behind the pages say the same.
    expect((await t.app.inject("/api/forntend/index")).json().title).toBe(NEW_TITLE);
    const sort = (await t.app.inject("/api/forntend/getsort?diyname=manyao")).json();
    expect(sort.data?.title ?? sort.title).toBe(pages[1]!.title(NEW_TITLE));
  });

  it("names the site by its title in account mails", async () => {
    const member = await createTestUser(t.app);
    const res = await t.app.inject({ method: "POST", url: profilePaths.sendCode, payload: { email: member.email, event: "resetpwd" }, remoteAddress: "10.9.8.7" });
    expect(res.statusCode).toBe(200);
    const mail = await lastOutboxMail(t.app, member.email);
    expect(mail!.subject).toBe(`【${NEW_TITLE}】找回密码验证码`);
    expect(mail!.text).toContain(NEW_TITLE);
    expect(mail!.text).not.toContain("DJ搜索引擎网");
  });
});
