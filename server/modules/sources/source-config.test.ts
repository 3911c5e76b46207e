/**
 * A site added, repaired and switched off from configuration while the app runs (issue 11's
 * "the generic adapter reproduces one site's results from configuration alone"; ADR 0026): the
 * back office stores a generic source through the admin API, and the very next search uses it.
 */
import { readFileSync } from "node:fs";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admins, sourceSites } from "../../db/schema/index.js";
import { html, startFixtureSite, withLatency, type FixtureSite } from "../../testing/fixture-site.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { sessionService } from "../accounts/session-service.js";
import { changedLayoutPage, emptySearchPage, SEARCH_ITEMS, searchPage, serveDjuu } from "./adapters/djuu.fixtures.js";
import { djuuSource, type FixtureSource } from "./source-search.fixtures.js";

const djuuConfig = JSON.parse(readFileSync(new URL("./adapters/djuu.generic.json", import.meta.url), "utf8")) as Record<string, unknown>;

/** The djuu configuration pointed at the fixture site, stored as a new site 镜像DJ (`mirror`). */
const mirrorConfig = (site: FixtureSite): Record<string, unknown> => ({ ...djuuConfig, code: "mirror", name: "镜像DJ", baseUrl: site.url, bases: { api: `${site.url}/app/v1` }, hosts: [site.host], minIntervalMs: 0 });

/** The repair for the redesigned page: cards with `data-song` and the title in a span. */
const repairedSearch = {
  url: "/search?musicname={keyword}&cid=0&list=1&page={page}",
  extract: {
    type: "html",
    items: "div.song-card[data-song]",
    fields: { id: { attr: "data-song" }, title: { selector: "span" } },
    emptyWhen: { selectors: [".songs-grid"], texts: ["没有找到"] },
  },
};

describe.each(testEngines())("sources configured by data on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let site: FixtureSite;
  let token: string;
  /** What the fixture site's /search shows: today's page, the redesign, or today's page slowly. */
  const layout = { now: "today" as "today" | "changed" | "slow" };

  const auth = () => ({ authorization: `Bearer ${token}` });
  const put = (code: string, body: unknown) => app.inject({ method: "PUT", url: `/api/pandaadmin/sources/${code}`, headers: auth(), payload: body as object });
  const patch = (code: string, body: unknown) => app.inject({ method: "PATCH", url: `/api/pandaadmin/sources/${code}`, headers: auth(), payload: body as object });
  const search = (query: Record<string, string>) => app.inject({ url: "/api/forntend/indexsearch", query: { keyword: "夜曲", ...query } });
  const listed = async () => (await app.inject({ url: "/api/pandaadmin/sources", headers: auth() })).json().data.sources as Record<string, unknown>[];

  beforeAll(async () => {
    site = await startFixtureSite();
    // Every page of 夜曲 lists the same three items (pages differ only to miss the search cache).
    site.route("/search", (req, res, match) => {
      if (new URL(req.url ?? "/", "http://x").searchParams.get("musicname") !== "夜曲") return html(emptySearchPage())(req, res, match);
      if (layout.now === "changed") return html(changedLayoutPage())(req, res, match);
      return (layout.now === "slow" ? withLatency(300, html(searchPage())) : html(searchPage()))(req, res, match);
    });
    serveDjuu(site);
    testApp = await createTestApp(engine, { sourceNetwork: { allowAddresses: [site.host] } });
    app = testApp.app;
    const [row] = await testApp.database.db.insert(admins).values({ username: "sources-boss", passwordHash: "x", status: 1, role: "super" }).returning();
    token = await sessionService(testApp.database.db).createAdminSession(row!.id);
  });

  afterAll(async () => {
    await testApp?.close();
    await site?.close();
  });

  it("lists the sites for admins only: built-ins not in use, 本站 without an adapter", async () => {
    expect((await app.inject({ url: "/api/pandaadmin/sources" })).statusCode).toBe(401);
    const sources = await listed();
    expect(sources.map((s) => s.code)).toEqual(["djuu", "172minx", "vvvdj", "local"]);
    expect(sources[0]).toMatchObject({ name: "DJUU", adapter: "builtin", enabled: true, inUse: false, collectIntervalMinutes: 360, config: null });
    expect(sources[3]).toMatchObject({ code: "local", adapter: "none" });
  });

  it("refuses a bad configuration with the checker's message, and stores nothing", async () => {
    const { search: _search, ...withoutSearch } = mirrorConfig(site);
    const missing = await put("mirror", withoutSearch);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().msg).toMatch(/^来源配置无效：[\s\S]*search/u);

    const badSelector = await put("mirror", { ...mirrorConfig(site), search: { ...repairedSearch, extract: { ...repairedSearch.extract, fields: { id: { attr: 7 } } } } });
    expect(badSelector.statusCode).toBe(400);
    expect(badSelector.json().msg).toMatch(/^来源配置无效：[\s\S]*search\.extract\.fields\.id\.attr/u);

    // Hosts that are private or loopback address literals never get stored (the fetcher would refuse them anyway).
    for (const host of ["10.0.0.7", "169.254.169.254", "[::1]", "localhost"]) {
      const res = await put("mirror", { ...mirrorConfig(site), hosts: [site.host, host] });
      expect(res.statusCode, host).toBe(400);
      expect(res.json().msg).toMatch(/^来源配置无效：主机 .*(内网|本机)/u);
    }
    const elsewhere = await put("mirror", { ...mirrorConfig(site), hosts: ["www.example.com"] });
    expect(elsewhere.json().msg).toMatch(/baseUrl 的主机 127\.0\.0\.1 不在 hosts 中/u);
    expect((await put("mirror", { ...mirrorConfig(site), code: "other" })).json().msg).toBe("配置中的 code 与地址中的来源代码不一致");
    // The built-in sites are code adapters: switched and renamed, never replaced by data or deleted.
    expect((await put("djuu", { ...mirrorConfig(site), code: "djuu" })).json().msg).toBe("内置来源由代码提供，不能用配置替换");
    const deleteBuiltin = await app.inject({ method: "DELETE", url: "/api/pandaadmin/sources/djuu", headers: auth() });
    expect(deleteBuiltin.statusCode).toBe(400);
    expect(deleteBuiltin.json().msg).toBe("内置来源不能删除");

    expect((await listed()).map((s) => s.code)).not.toContain("mirror");
    expect((await search({ channelid: "mirror" })).json().data.list).toEqual([]);
  });

  it("a site stored at runtime is searched at once, with djuu's results from configuration alone", async () => {
    const created = await put("mirror", mirrorConfig(site));
    expect(created.statusCode).toBe(201);
    expect(created.json().data).toMatchObject({ code: "mirror", name: "镜像DJ", adapter: "generic", inUse: true, enabled: true, sort: 5 });
    const logo = await patch("mirror", { logo: "/static/sites/mirror.png", collectIntervalMinutes: 120 });
    expect(logo.json().data).toMatchObject({ logo: "/static/sites/mirror.png", collectIntervalMinutes: 120 });

    const res = await search({ channelid: "mirror" });
    expect(res.statusCode).toBe(200);
    const list = res.json().data.list as { id: string; name: string; source: string; website: string; websitelogo: string; palyurl: string }[];
    expect(list.map((i) => i.id).sort()).toEqual(SEARCH_ITEMS.map((i) => `mirror:${i.id}`).sort());
    expect(list[0]).toMatchObject({ source: "mirror", website: "镜像DJ", websitelogo: "/static/sites/mirror.png" });
    expect(list.find((i) => i.id === "mirror:201001")).toMatchObject({ name: "夜曲(DJ阿福 Electro Rmx 2025 粤语)", palyurl: "/api/forntend/source-play?source=mirror&id=201001" });
    // It plays through the same configuration (djuu's app API gives a direct address).
    const play = await app.inject({ url: "/api/forntend/source-play", query: { source: "mirror", id: "201001" } });
    expect(play.statusCode).toBe(302);
    expect(play.headers.location).toBe("https://mp4.djuu.com/c4/22/2026/201001.m4a?t=1795000000");
    // The health board and the admin list know it.
    const health = (await app.inject({ url: "/api/pandaadmin/sources/health", headers: auth() })).json().data.sources;
    expect(health).toEqual([expect.objectContaining({ code: "mirror", name: "镜像DJ", calls: 2, failures: 0 })]);
  });

  it("a changed layout is a source error until the configuration is repaired; the next search uses the repair", async () => {
    layout.now = "changed";
    const broken = await search({ channelid: "mirror", page: "2" });
    expect(broken.statusCode).toBe(200);
    expect(broken.json().data.errors).toEqual([{ source: "mirror", msg: "搜索失败" }]);

    const repaired = await put("mirror", { ...mirrorConfig(site), search: repairedSearch });
    expect(repaired.statusCode).toBe(200);
    expect(repaired.json().data.config.search.extract.items).toBe("div.song-card[data-song]");
    const res = await search({ channelid: "mirror", page: "2" });
    expect(res.json().data).toMatchObject({ errors: [], list: [{ id: "mirror:201001", name: "夜曲", artist: "周杰伦", source: "mirror" }] });
    // A repaired source starts with a fresh record (its breaker closed).
    const health = (await app.inject({ url: "/api/pandaadmin/sources/health", headers: auth() })).json().data.sources;
    expect(health[0]).toMatchObject({ code: "mirror", calls: 1, failures: 0, state: "closed" });
  });

  it("a search in flight keeps working while the configuration changes under it", async () => {
    await put("mirror", mirrorConfig(site));
    layout.now = "slow";
    const inFlight = search({ channelid: "mirror", page: "3" });
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Replaced while the site is still answering: the old adapter's sockets stay until it is done.
    expect((await put("mirror", { ...mirrorConfig(site), headers: { "X-Changed": "1" } })).statusCode).toBe(200);
    const res = await inFlight;
    expect(res.json().data.errors).toEqual([]);
    expect(res.json().data.list.length).toBe(3);
    layout.now = "today";
    await search({ channelid: "mirror", page: "4" });
    expect(site.hits.filter((h) => h.path === "/search").at(-1)!.headers["x-changed"]).toBe("1");
  });

  it("switched off, it leaves search and play; switched on, it is back; deleted, it is gone", async () => {
    const off = await patch("mirror", { enabled: false });
    expect(off.json().data).toMatchObject({ enabled: false, inUse: false });
    const res = await search({ page: "5" });
    expect(res.json().data).toMatchObject({ list: [], errors: [] });
    expect((await app.inject({ url: "/api/forntend/source-play", query: { source: "mirror", id: "201001" } })).statusCode).toBe(404);

    expect((await patch("mirror", { enabled: true })).json().data.inUse).toBe(true);
    expect((await search({ page: "6" })).json().data.list.length).toBeGreaterThan(0);

    const gone = await app.inject({ method: "DELETE", url: "/api/pandaadmin/sources/mirror", headers: auth() });
    expect(gone.statusCode).toBe(200);
    expect((await search({ page: "7" })).json().data.list).toEqual([]);
    expect(await testApp.database.db.select().from(sourceSites)).toHaveLength(4);
    expect((await app.inject({ method: "DELETE", url: "/api/pandaadmin/sources/mirror", headers: auth() })).statusCode).toBe(404);
  });

  it("patches refuse what is not a change, and unknown sites", async () => {
    expect((await patch("djuu", {})).json().msg).toBe("没有要修改的内容");
    expect((await patch("djuu", { logo: "javascript:alert(1)" })).json().msg).toBe("图标地址须以 / 或 http(s):// 开头");
    expect((await patch("nosuch", { enabled: false })).statusCode).toBe(404);
    const renamed = await patch("djuu", { name: "DJ呦呦", sort: 9 });
    expect(renamed.json().data).toMatchObject({ code: "djuu", name: "DJ呦呦", sort: 9, adapter: "builtin" });
  });

  it("documents the routes", async () => {
    const doc = (await app.inject({ url: "/api/docs/json" })).json();
    expect(Object.keys(doc.paths["/api/pandaadmin/sources/{code}"]).sort()).toEqual(["delete", "patch", "put"]);
    expect(doc.paths["/api/pandaadmin/sources"].get.summary).toMatch(/来源站点列表/u);
  });
});

describe.each(testEngines())("built-in sources shown and switched from source_sites on %s", (engine) => {
  let testApp: TestApp;
  let djuu: FixtureSource;

  const search = (page: string) => testApp.app.inject({ url: "/api/forntend/indexsearch", query: { keyword: "夜曲", channelid: "djuu", page } });

  beforeAll(async () => {
    djuu = await djuuSource();
    testApp = await createTestApp(engine, { sourceAdapters: [djuu.entry] });
  });

  afterAll(async () => {
    await testApp?.close();
    await djuu?.close();
  });

  it("hits carry the site's name and logo from source_sites; switched off, the site leaves search, play and health", async () => {
    const { services } = testApp.app;
    await services.writes.updateSourceSite("djuu", { name: "DJ呦呦", logo: "/media/demo/logos/djuu.png" });
    await services.sourceDirectory.settled();
    const hits = (await search("1")).json().data.list as { source: string; website: string; websitelogo: string }[];
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => h.source === "djuu" && h.website === "DJ呦呦" && h.websitelogo === "/media/demo/logos/djuu.png")).toBe(true);
    expect(services.sourceHealth.list()).toEqual([expect.objectContaining({ code: "djuu", name: "DJ呦呦", calls: 1 })]);

    await services.writes.updateSourceSite("djuu", { enabled: false });
    await services.sourceDirectory.settled();
    expect(services.sourceDirectory.get("djuu")).toBeUndefined();
    const before = djuu.searches();
    expect((await search("2")).json().data).toMatchObject({ list: [], errors: [] });
    expect(djuu.searches()).toBe(before);
    expect(services.sourceHealth.list()).toEqual([]);
    expect((await testApp.app.inject({ url: "/api/forntend/source-play", query: { source: "djuu", id: "201001" } })).statusCode).toBe(404);

    await services.writes.updateSourceSite("djuu", { enabled: true });
    await services.sourceDirectory.settled();
    expect(services.sourceDirectory.get("djuu")?.adapter).toBe(djuu.entry.adapter);
  });
});
