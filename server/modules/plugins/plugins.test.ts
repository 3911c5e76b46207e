/**
 * A plugin written in MusicFree's style (axios + cheerio + crypto-js + Buffer) as an operator
 * uses it (issue 21): installed by upload, tried, enabled, searched beside the catalogue,
 * played with Range through our proxy with the headers it asks for, its top lists read, updated,
 * rolled back, removed; every change audited. And a plugin that keeps hitting its limits is
 * switched off with the reason shown.
 */
import { and, asc, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, collectedItems, items, pluginVersions, sourceSites } from "../../db/schema/index.js";
import { createTestAdmin } from "../../testing/admins.js";
import { startFixtureSite, type FixtureSite } from "../../testing/fixture-site.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { uploadPlugin } from "./testing/upload.js";
import { testEngines } from "../../testing/test-db.js";
import { serveYedian, yedianPlugin } from "./testing/yedian.js";

describe.each(testEngines())("source plugins on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let site: FixtureSite;
  let admin: Awaited<ReturnType<typeof createTestAdmin>>;
  const served: Record<string, string> = {};

  const upload = (code: string) => uploadPlugin(app, admin.headers, code);
  const call = (method: "GET" | "PATCH" | "POST" | "DELETE", url: string, payload?: object) =>
    app.inject({ method, url: `/api/pandaadmin/plugins${url}`, headers: admin.headers, ...(payload ? { payload } : {}) });
  const platform = encodeURIComponent("夜店DJ");
  const search = async (keyword: string) => (await app.inject({ url: "/api/forntend/indexsearch", query: { keyword } })).json().data as { list: { id: string; name: string; source: string; palyurl: string; artist: string }[]; errors: unknown[] };

  beforeAll(async () => {
    site = await startFixtureSite();
    serveYedian(site);
    // Plugin files and subscriptions served by address (the plugin's srcUrl is /plugin.js).
    site.route(/^\/(sub\/.+|plugin\.js)$/u, (req, res) => {
      const text = served[new URL(req.url ?? "/", "http://x").pathname];
      res.statusCode = text === undefined ? 404 : 200;
      res.end(text ?? "");
    });
    testApp = await createTestApp(engine, { plugins: { allowAddresses: [site.host], misbehavingThreshold: 2, limits: { callCpuMs: 300 } } });
    app = testApp.app;
    admin = await createTestAdmin(testApp.database.db, { role: "super" });
  });

  afterAll(async () => {
    await testApp?.close();
    await site?.close();
  });

  it("installs an uploaded plugin switched off, with what it declares", async () => {
    const res = await upload(yedianPlugin("1.0.0", site.url));
    expect(res.statusCode).toBe(200);
    const [plugin] = res.json().data.installed;
    expect(plugin).toMatchObject({
      platform: "夜店DJ",
      version: "1.0.0",
      author: "测试",
      source: "p-yediandj",
      enabled: false,
      capabilities: { search: true, play: true, details: false, topLists: true },
      userVariables: [{ key: "baseUrl", name: "站点地址", hint: "留空使用官方地址" }],
      previousVersion: null,
    });
    expect((await call("GET", "")).json().data.plugins.map((p: { platform: string }) => p.platform)).toEqual(["夜店DJ"]);
    // Not yet a source: the search does not ask it.
    expect((await search("夜曲")).list.some((i) => i.source === "p-yediandj")).toBe(false);
  });

  it("tries it before it is enabled: hits and the first hit's address with its headers", async () => {
    const res = await call("POST", `/${platform}/try`, { keyword: "夜曲" });
    const data = res.json().data;
    expect(data).toMatchObject({ ok: true, error: null });
    expect(data.items).toHaveLength(20);
    expect(data.items[0]).toMatchObject({ id: "1", title: "夜曲串烧1", artist: "DJ阿华", cover: "https://img.example/c/1.jpg", duration: 3725 });
    expect(data.media.url).toMatch(/\/media\/1\.m4a\?sign=[0-9a-f]{32}$/u);
    expect(data.media.headers).toEqual({ referer: `${site.url}/`, "user-agent": "YedianPlayer/2.0" });
  });

  it("once enabled, is searched beside the catalogue and plays with Range through the proxy", async () => {
    expect((await call("PATCH", `/${platform}`, { enabled: true })).json().data.enabled).toBe(true);
    const found = await search("夜曲");
    const hits = found.list.filter((i) => i.source === "p-yediandj");
    expect(hits.length).toBeGreaterThan(0);
    expect(hits[0]).toMatchObject({ id: "p-yediandj:1", name: "夜曲串烧1", artist: "DJ阿华" });

    const before = site.hits.length;
    const play = await app.inject({ url: hits[0]!.palyurl, headers: { range: "bytes=0-15" } });
    expect(play.statusCode).toBe(206);
    expect(play.rawPayload.subarray(4, 8).toString("latin1")).toBe("ftyp");
    const media = site.hits.slice(before).find((h) => h.path === "/media/1.m4a")!;
    expect(media.headers.referer).toBe(`${site.url}/`);
    expect(media.headers["user-agent"]).toBe("YedianPlayer/2.0");
  });

  it("reads its top lists for the charts and the collector", async () => {
    const entry = app.services.sourceDirectory.get("p-yediandj")!;
    const week = await entry.adapter.listChart({ period: "week", kind: "mix" });
    expect(week.items.map((i) => i.sourceId).slice(0, 2)).toEqual(["700", "701"]);
    expect(week.items[0]).toMatchObject({ position: 1, kind: "mix" });
    const page2 = await entry.adapter.listCategory("toplist:8", 2);
    expect(page2.items[0]!.sourceId).toBe("810");
    expect(page2.hasMore).toBe(true);
    expect((await entry.adapter.listCategory("toplist:8", 3)).hasMore).toBe(false);
  });

  it("is walked by the collector: its top lists become the site's charts board and collected items", async () => {
    const started = await app.inject({ method: "POST", url: "/api/pandaadmin/collect/start", headers: admin.headers, payload: { source: "p-yediandj" } });
    expect(started.statusCode).toBe(200);
    const [queued] = started.json().data.jobs ?? [started.json().data];
    await app.services.collector.runner.runOnce();
    const detail = (await app.inject({ url: `/api/pandaadmin/collect/jobs/${queued.job?.id ?? queued.id}`, headers: admin.headers })).json().data;
    expect(detail.job).toMatchObject({ state: "done", errors: 0 });
    expect(detail.plan.map((u: { key: string }) => u.key)).toEqual(["week:mix", "month:single", "toplist:7", "toplist:8"]);
    const rows = await testApp.database.db.select().from(collectedItems).where(eq(collectedItems.source, "p-yediandj"));
    expect(rows.length).toBeGreaterThanOrEqual(50);
    const board = (await app.inject({ url: "/api/forntend/getrank?site=p-yediandj&type=mix&period=week&board=site" })).json().data;
    expect(board.list[0]).toMatchObject({ rank: 1, name: "榜单串烧700", external: true });

    // A collected hit becomes a suite of ours like any collected item, playing through the plugin.
    const mix = rows.find((r) => r.sourceId === "700")!;
    const processed = await app.inject({ method: "POST", url: "/api/pandaadmin/collect/process", headers: admin.headers, payload: { ids: [mix.id] } });
    expect(processed.statusCode).toBe(200);
    const [outcome] = processed.json().data.results;
    expect(outcome).toMatchObject({ action: "created", error: null });
    const [made] = await testApp.database.db.select().from(items).where(eq(items.id, outcome.itemId));
    expect(made).toMatchObject({ sourceSite: "p-yediandj", sourceId: "700", kind: "mix", playUrl: "/api/forntend/source-play?source=p-yediandj&id=700" });
  });

  it("takes a built-in site's place when the operator says so, and gives it back", async () => {
    const replaced = await call("PATCH", `/${platform}`, { replaces: "djuu" });
    expect(replaced.json().data).toMatchObject({ source: "djuu", replacesBuiltin: true });
    expect((await search("夜曲")).list.some((i) => i.id === "djuu:1")).toBe(true);
    expect(app.services.sourceDirectory.get("p-yediandj")).toBeUndefined();
    const back = await call("PATCH", `/${platform}`, { replaces: null });
    expect(back.json().data).toMatchObject({ source: "p-yediandj", replacesBuiltin: false });
    expect(app.services.sourceDirectory.get("djuu")).toBeUndefined();
    expect((await search("夜曲")).list.some((i) => i.id === "p-yediandj:1")).toBe(true);
  });

  it("stages an uploaded newer version without using it, activates it, refuses an older one, rolls back, and audits each", async () => {
    const uploaded = await upload(yedianPlugin("1.1.0", site.url, "新版"));
    expect(uploaded.statusCode).toBe(200);
    const answer = uploaded.json().data;
    expect(answer).toMatchObject({ installed: [], failed: [], staged: [{ platform: "夜店DJ", version: "1.1.0", current: "1.0.0" }] });
    const versionId = answer.staged[0].versionId as number;
    // Stored, not used: the plugin still runs the old version's code.
    expect((await call("GET", "")).json().data.plugins[0]).toMatchObject({ version: "1.0.0", previousVersion: null, enabled: true });
    expect((await search("夜曲")).list.find((i) => i.source === "p-yediandj")?.name).toBe("夜曲串烧1");
    const [stored] = await testApp.database.db.select().from(pluginVersions).where(eq(pluginVersions.id, versionId));
    expect(stored).toMatchObject({ platform: "夜店DJ", version: "1.1.0" });

    // The version in use again is refused, as before.
    expect((await upload(yedianPlugin("1.0.0", site.url))).json().msg).toBe("该平台已安装相同或更新的版本");

    const activated = await call("POST", `/${platform}/activate`, { versionId });
    expect(activated.json().data).toMatchObject({ version: "1.1.0", previousVersion: "1.0.0", enabled: true });
    expect((await search("夜曲")).list.find((i) => i.source === "p-yediandj")?.name).toBe("新版夜曲串烧1");
    // Older than (or equal to) the version now in use: refused with today's message.
    for (const v of ["1.0.5", "1.1.0"]) {
      const older = await upload(yedianPlugin(v, site.url));
      expect(older.statusCode).toBe(400);
      expect(older.json().msg).toBe("该平台已安装相同或更新的版本");
    }

    const rolled = await call("POST", `/${platform}/rollback`);
    expect(rolled.json().data).toMatchObject({ version: "1.0.0", previousVersion: "1.1.0" });
    // The search answers of the old version were dropped with the change.
    expect((await search("夜曲")).list.find((i) => i.source === "p-yediandj")?.name).toBe("夜曲串烧1");

    const audits = await testApp.database.db.select().from(auditLog).where(eq(auditLog.targetType, "plugin")).orderBy(asc(auditLog.id));
    expect(audits.map((a) => a.action)).toEqual(["plugin.install", "plugin.update", "plugin.update", "plugin.update", "plugin.stage", "plugin.update", "plugin.rollback"]);
    expect(audits[4]!.detail).toMatchObject({ platform: "夜店DJ", versionId, version: "1.1.0", current: "1.0.0" });
    expect(audits.every((a) => a.adminId === admin.id)).toBe(true);
  });

  it("a subscription stages a newer version of an installed platform and installs a new one", async () => {
    const other = `module.exports = { platform: "订阅新站", version: "1.0.0", srcUrl: "${site.url}/sub/new.js", async search() { return { isEnd: true, data: [] }; } };`;
    served["/sub/yedian.js"] = yedianPlugin("1.2.0", site.url, "订阅");
    served["/sub/new.js"] = other;
    served["/sub/old.js"] = yedianPlugin("0.9.0", site.url);
    served["/sub/list.json"] = JSON.stringify({ plugins: [{ name: "夜店", url: `${site.url}/sub/yedian.js` }, { name: "新站", url: `${site.url}/sub/new.js` }, { name: "旧版", url: `${site.url}/sub/old.js` }] });
    const res = await call("POST", "", { subscription: `${site.url}/sub/list.json` });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.staged).toEqual([{ platform: "夜店DJ", versionId: expect.any(Number), version: "1.2.0", current: "1.0.0" }]);
    expect(data.installed.map((p: { platform: string; enabled: boolean }) => [p.platform, p.enabled])).toEqual([["订阅新站", false]]);
    expect(data.failed).toEqual([{ name: "旧版", error: "该平台已安装相同或更新的版本" }]);
    // The installed platform still runs 1.0.0.
    expect((await call("GET", "")).json().data.plugins.find((p: { platform: string }) => p.platform === "夜店DJ")).toMatchObject({ version: "1.0.0" });
    // By address, the same: staged.
    const byUrl = await call("POST", "", { url: `${site.url}/sub/yedian.js` });
    expect(byUrl.json().data).toMatchObject({ installed: [], failed: [], staged: [{ platform: "夜店DJ", version: "1.2.0", current: "1.0.0" }] });
    expect((await call("GET", "")).json().data.plugins.find((p: { platform: string }) => p.platform === "夜店DJ")).toMatchObject({ version: "1.0.0" });
    // Put in use, the version staged from an address makes that address the platform's origin.
    const activated = await call("POST", `/${encodeURIComponent("夜店DJ")}/activate`, { versionId: byUrl.json().data.staged[0].versionId });
    expect(activated.statusCode).toBe(200);
    expect(activated.json().data).toMatchObject({ version: "1.2.0", origin: `${site.url}/sub/yedian.js` });
    // Back to 1.0.0 for the tests after this one.
    expect((await call("POST", `/${platform}/rollback`)).json().data).toMatchObject({ version: "1.0.0" });
    expect((await call("DELETE", `/${encodeURIComponent("订阅新站")}`)).statusCode).toBe(200);
  });

  it("POST …/update stays install-and-use for API clients: staged and activated in one call", async () => {
    served["/plugin.js"] = yedianPlugin("1.3.0", site.url, "更新");
    const updated = await call("POST", `/${platform}/update`);
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data).toMatchObject({ version: "1.3.0", previousVersion: "1.0.0" });
    const audits = await testApp.database.db.select().from(auditLog).where(eq(auditLog.targetType, "plugin")).orderBy(asc(auditLog.id));
    expect(audits.slice(-2).map((a) => a.action)).toEqual(["plugin.stage", "plugin.update"]);
    expect((await call("POST", `/${platform}/update`)).json().msg).toBe("该平台已安装相同或更新的版本");
  });

  it("answers bad input with Chinese messages and 4xx, changing nothing", async () => {
    expect((await upload("module.exports = {")).json().msg).toMatch(/^插件无效：/u);
    expect((await upload("module.exports = { version: '1' }")).json().msg).toBe("插件缺少 platform (平台名称)");
    expect((await call("POST", "", {})).statusCode).toBe(400);
    expect((await call("POST", "", { url: "ftp://x" })).statusCode).toBe(400);
    expect((await call("PATCH", `/${platform}`, { replaces: "qq" })).json().msg).toBe("只能替换内置来源 djuu、172minx 或 vvvdj");
    expect((await call("PATCH", "/nobody", { enabled: true })).statusCode).toBe(404);
    expect((await call("GET", "")).json().data.plugins).toHaveLength(1);
  });

  it("switches off a plugin that keeps hitting its limits, with the reason shown", async () => {
    const looping = `module.exports = { platform: "死循环", version: "1.0.0", search() { for (;;) {} } };`;
    expect((await upload(looping)).statusCode).toBe(200);
    await call("PATCH", `/${encodeURIComponent("死循环")}`, { enabled: true });
    await search("第一次");
    // The limit hit is counted on the source's health besides the failed search: two failures.
    const health = (await app.inject({ url: "/api/pandaadmin/sources/health", headers: admin.headers })).json().data.sources as { code: string; failures: number; lastError: { kind: string } | null }[];
    expect(health.find((s) => s.code === "p-sixunhuan")).toMatchObject({ failures: 2, lastError: { kind: "plugin" } });
    await search("第二次");
    await expect
      .poll(async () => (await call("GET", "")).json().data.plugins.find((p: { platform: string }) => p.platform === "死循环"), { timeout: 5_000 })
      .toMatchObject({ enabled: false, disabledReason: "10 分钟内 2 次超出沙箱限制，最近一次：超出 CPU 时间" });
    const [off] = await testApp.database.db.select().from(auditLog).where(and(eq(auditLog.action, "plugin.disable"), eq(auditLog.targetId, "死循环")));
    expect(off?.adminId).toBeNull();
    expect(app.services.sourceDirectory.get("p-sixunhuan")).toBeUndefined();
  });

  it("removes a plugin with its versions; its source stays, switched off, while a suite of ours names it", async () => {
    expect((await call("DELETE", `/${platform}`)).statusCode).toBe(200);
    expect((await call("GET", "")).json().data.plugins.map((p: { platform: string }) => p.platform)).toEqual(["死循环"]);
    expect(await testApp.database.db.select().from(pluginVersions).where(eq(pluginVersions.platform, "夜店DJ"))).toEqual([]);
    expect(await testApp.database.db.select({ enabled: sourceSites.enabled }).from(sourceSites).where(eq(sourceSites.code, "p-yediandj"))).toEqual([{ enabled: false }]);
    expect(app.services.sourceDirectory.get("p-yediandj")).toBeUndefined();
    // A source no suite names goes with its plugin.
    expect((await call("DELETE", `/${encodeURIComponent("死循环")}`)).statusCode).toBe(200);
    expect(await testApp.database.db.select().from(sourceSites).where(eq(sourceSites.code, "p-sixunhuan"))).toEqual([]);
  });
});
