/**
 * A category page's title is its own part and " - {站点标题}" appended when it answers (ADR 0066);
 * migration 0022 takes the old built-in site name off stored titles, and only that.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadMigrations, migrate, MIGRATIONS_TABLE } from "../../db/migrate.js";
import { silentLogger, type SqlSession } from "../../db/types.js";
import { openRawSession, testEngines } from "../../testing/test-db.js";
import { pageMeta } from "../../../web/app/lib/site";
import { DEFAULT_SITE_SETTINGS, footerLines } from "@contracts/site";
import { categoryTitle } from "./category-service.js";

describe("a category page's title", () => {
  it("appends the site title to the SEO title, or to the name when there is none", () => {
    expect(categoryTitle({ name: "慢摇串烧", seoTitle: "慢摇串烧DJ舞曲" }, "DJ舞曲网")).toBe("慢摇串烧DJ舞曲 - DJ舞曲网");
    expect(categoryTitle({ name: "慢摇串烧", seoTitle: "" }, "DJ舞曲网")).toBe("慢摇串烧 - DJ舞曲网");
    expect(categoryTitle({ name: "慢摇串烧", seoTitle: "   " }, "DJ舞曲网")).toBe("慢摇串烧 - DJ舞曲网");
    // Without settings (a service built without them): the category's own part only.
    expect(categoryTitle({ name: "慢摇串烧", seoTitle: "" }, undefined)).toBe("慢摇串烧");
  });

  it("every page's <title> and description tags take the site's texts", () => {
    const site = { ...DEFAULT_SITE_SETTINGS, title: "新站名", keywords: "k1,k2", description: "站点描述" };
    expect(pageMeta("登录", undefined, site)).toEqual([
      { title: "登录 - 新站名" },
      { name: "keywords", content: "k1,k2" },
      { name: "description", content: "站点描述" },
    ]);
    expect(pageMeta(undefined, "页面自己的描述", site)[0]).toEqual({ title: "新站名" });
    expect(pageMeta(undefined, "页面自己的描述", site)[2]).toEqual({ name: "description", content: "页面自己的描述" });
    expect(pageMeta("登录")[0]).toEqual({ title: "登录 - DJ搜索引擎网" });
  });

  it("the footer ends with © and the site title, unless it writes its own © line", () => {
    expect(footerLines({ footer: DEFAULT_SITE_SETTINGS.footer, title: "新站名" })).toEqual([DEFAULT_SITE_SETTINGS.footer, "© 新站名"]);
    expect(footerLines({ footer: "第一行\n第二行", title: "新站名" })).toEqual(["第一行", "第二行", "© 新站名"]);
    expect(footerLines({ footer: "  ", title: "新站名" })).toEqual(["© 新站名"]);
    expect(footerLines({ footer: "本站只提供搜索\n© 我的站 2026", title: "新站名" })).toEqual(["本站只提供搜索", "© 我的站 2026"]);
  });
});

const migrations = loadMigrations();
const upTo = migrations.findIndex((m) => m.tag.startsWith("0022_"));

describe.each(testEngines())("migration 0022 on %s", (engine) => {
  const footerAfter = async (footer: unknown) => {
    await session.query(`delete from app_settings`);
    await session.query(`insert into app_settings (key, value) values ('site', $1::jsonb)`, [JSON.stringify({ title: "X", footer })]);
    await session.query(`delete from ${MIGRATIONS_TABLE} where tag = $1`, [migrations[upTo]!.tag]);
    await migrate(session, silentLogger, migrations);
    const [row] = await session.query<{ value: { footer: unknown; title: string } }>(`select value from app_settings where key = 'site'`);
    expect(row!.value.title).toBe("X");
    return row!.value.footer;
  };
  let raw: Awaited<ReturnType<typeof openRawSession>>;
  let session: SqlSession;
  beforeAll(async () => {
    raw = await openRawSession(engine);
    session = raw.session;
    await migrate(session, silentLogger, migrations.slice(0, upTo));
  });
  afterAll(async () => raw?.close());

  it("takes the old site name off stored titles and the demo's descriptions, and leaves an admin's own texts", async () => {
    expect(upTo).toBeGreaterThan(0);
    const rows: [string, string, string][] = [
      ["a", "慢摇串烧_慢摇串烧DJ舞曲免费在线试听 - DJ搜索引擎网", "DJ搜索引擎网收录最新最热的慢摇串烧DJ舞曲，每日更新。"],
      ["b", "迪高串烧-DJ搜索引擎网", "迪高串烧合集"],
      ["c", "中文串烧 _ DJ搜索引擎网  ", ""],
      ["d", "DJ搜索引擎网精选", "我们和DJ搜索引擎网一样好"],
      ["e", "", ""],
      ["f", "外语串烧 | DJ搜索引擎网大全", ""],
    ];
    for (const [slug, title, description] of rows) {
      // Rows as a database before migration 0022 holds them: written behind the write service's back.
      await session.query(`insert into categories (name, diyname, seo_title, seo_description) values ($1, $2, $3, $4)`, [slug, slug, title, description]); // behind the write service's back
    }
    await migrate(session, silentLogger, migrations);
    const after = await session.query<{ diyname: string; seo_title: string; seo_description: string }>(
      `select diyname, seo_title, seo_description from categories order by diyname`,
    );
    expect(after).toEqual([
      { diyname: "a", seo_title: "慢摇串烧_慢摇串烧DJ舞曲免费在线试听", seo_description: "本站收录最新最热的慢摇串烧DJ舞曲，每日更新。" },
      { diyname: "b", seo_title: "迪高串烧", seo_description: "迪高串烧合集" },
      { diyname: "c", seo_title: "中文串烧", seo_description: "" },
      { diyname: "d", seo_title: "DJ搜索引擎网精选", seo_description: "我们和DJ搜索引擎网一样好" },
      { diyname: "e", seo_title: "", seo_description: "" },
      { diyname: "f", seo_title: "外语串烧 | DJ搜索引擎网大全", seo_description: "" },
    ]);
  });

  it("takes the old site name's © line off a stored footer, and leaves other footers", async () => {
    expect(await footerAfter("本站只提供DJ舞曲搜索，不提供下载；下载均在来源站点进行。\n© DJ搜索引擎网")).toBe("本站只提供DJ舞曲搜索，不提供下载；下载均在来源站点进行。");
    expect(await footerAfter("© DJ搜索引擎网 ")).toBe("");
    expect(await footerAfter("本站只提供搜索\n© 我的站 2026")).toBe("本站只提供搜索\n© 我的站 2026");
    expect(await footerAfter(42)).toBe(42);
  });
});
