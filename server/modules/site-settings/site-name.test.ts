/**
 * The site's title in the settings (站点设置) names the site where it used to be the constant
 * (ADR 0066, amended): the API docs' title, the early error page of a bad Host (and of an
 * undecodable page address) and the start-up log line. A rename shows on the next request,
 * without a restart; the bad-Host page never waits on the database, and the default stands in
 * when the settings cannot be read.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SITE_SETTINGS_KEY } from "./service.js";
import { startupLine } from "../../startup-line.js";
import { createTestAdmin } from "../../testing/admins.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";

const DEFAULT = "DJ搜索引擎网";
const PUBLIC_URL = "http://dj.example.cn";

describe.each(testEngines())("the site's name from the settings on %s", (engine) => {
  let t: TestApp;
  let superHeaders: Record<string, string>;

  const rename = async (title: string) => {
    const res = await t.app.inject({
      method: "PUT",
      url: "/api/pandaadmin/settings",
      headers: superHeaders,
      payload: { ...(await t.app.services.siteSettings.get()), title },
    });
    expect(res.statusCode).toBe(200);
  };
  const docsTitle = async () => {
    const res = await t.app.inject("/api/docs/json");
    expect(res.statusCode).toBe(200);
    return res.json().info.title as string;
  };
  const docsYaml = async () => (await t.app.inject("/api/docs/yaml")).body;
  /** A page address asked with a malformed Host: the early error page. */
  const badHostPage = async () => {
    const res = await t.app.inject({ url: "/", headers: { host: "a b" } });
    expect(res.statusCode).toBe(400);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    return res.body;
  };
  const titleOf = (page: string) => /<title>([^<]*)<\/title>/.exec(page)?.[1];

  beforeAll(async () => {
    t = await createTestApp(engine);
    superHeaders = (await createTestAdmin(t.database.db, { role: "super" })).headers;
  });
  afterAll(() => t?.close());

  it("names the site by the settings' title in the API docs, the bad-Host page and the start-up line; a rename shows at the next request", async () => {
    expect(await docsTitle()).toBe(`${DEFAULT} API`);
    expect(titleOf(await badHostPage())).toBe(`请求的主机名无效 - ${DEFAULT}`);
    expect(await startupLine(t.app.services.siteSettings, PUBLIC_URL)).toBe(`${DEFAULT} is up at ${PUBLIC_URL} (Node.js ${process.version})`);

    await rename("夜店DJ舞曲站");
    expect(await docsTitle()).toBe("夜店DJ舞曲站 API");
    expect(await docsYaml()).toContain("title: 夜店DJ舞曲站 API");
    expect(titleOf(await badHostPage())).toBe("请求的主机名无效 - 夜店DJ舞曲站");
    // The other early pages share it: an undecodable page address.
    const undecodable = await t.app.inject("/sort/%zz");
    expect(undecodable.statusCode).toBe(400);
    expect(titleOf(undecodable.body)).toBe("请求地址无效 - 夜店DJ舞曲站");
    expect(await startupLine(t.app.services.siteSettings, PUBLIC_URL)).toMatch(/^夜店DJ舞曲站 is up at http:\/\/dj\.example\.cn /);
    // An API address asked with a bad Host still gets the envelope.
    const api = await t.app.inject({ url: "/api/forntend/gettopnav", headers: { host: "a b" } });
    expect(api.json()).toMatchObject({ code: 0, msg: "请求的主机名无效" });
  });

  it("escapes the title in the error page (an admin's text in HTML)", async () => {
    await rename(`DJ<舞曲>&"网"`);
    const page = await badHostPage();
    expect(titleOf(page)).toBe("请求的主机名无效 - DJ&lt;舞曲&gt;&amp;&quot;网&quot;");
    expect(page).not.toContain("<舞曲>");
    expect(await docsTitle()).toBe(`DJ<舞曲>&"网" API`);
    await rename("夜店DJ舞曲站");
  });

  it("answers a bad Host at once with the default while the settings are dropped and their row is locked, and with the title once they are read again", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    let reading: Promise<unknown> | undefined;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    // Another connection holds the table (on PGlite, its one connection): a read of the settings waits.
    const holding = t.database.db.transaction(async (tx) => {
      await tx.execute(sql`lock table app_settings in access exclusive mode`);
      locked();
      await gate;
    });
    try {
      await isLocked;
      // A save elsewhere: the kept settings are dropped.
      await t.app.services.bus.publish({ type: "settings", keys: [SITE_SETTINGS_KEY] });
      let read = false;
      reading = t.app.services.siteSettings.get().then(() => (read = true));
      const answer = await Promise.race([
        badHostPage(),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error("the bad-Host page waited on the database")), 5_000)),
      ]);
      expect(titleOf(answer)).toBe(`请求的主机名无效 - ${DEFAULT}`);
      // The page was answered while the settings could not be read.
      expect(read).toBe(false);
    } finally {
      release();
      await holding;
    }
    // Once the table is free, the waiting read (which the page's background read joined) keeps the title.
    await reading;
    expect(titleOf(await badHostPage())).toBe("请求的主机名无效 - 夜店DJ舞曲站");
  });

  it("falls back to the default name in the docs and the start-up line when the settings cannot be read", async () => {
    await t.database.db.execute(sql`alter table app_settings rename to app_settings_away`);
    try {
      await t.app.services.bus.publish({ type: "settings", keys: [SITE_SETTINGS_KEY] });
      await expect(t.app.services.siteSettings.get()).rejects.toThrow();
      expect(await docsTitle()).toBe(`${DEFAULT} API`);
      expect(await startupLine(t.app.services.siteSettings, PUBLIC_URL)).toMatch(new RegExp(`^${DEFAULT} is up at `));
      expect(titleOf(await badHostPage())).toBe(`请求的主机名无效 - ${DEFAULT}`);
    } finally {
      await t.database.db.execute(sql`alter table app_settings_away rename to app_settings`);
    }
    // Nothing read meanwhile: the bad-Host page's own background read brings the title back.
    await expect.poll(async () => titleOf(await badHostPage())).toBe("请求的主机名无效 - 夜店DJ舞曲站");
    expect(await docsTitle()).toBe("夜店DJ舞曲站 API");
  });
});
