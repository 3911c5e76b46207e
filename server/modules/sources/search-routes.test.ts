/**
 * The app with external sources (fixture sites) beside the local catalogue: a failing source is
 * named in `errors` and never becomes a 5xx of ours; the admin API shows the sources' health.
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admins } from "../../db/schema/index.js";
import { hang, status } from "../../testing/fixture-site.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { sessionService } from "../accounts/session-service.js";
import { djuuSource, mirrorSource, type FixtureSource } from "./source-search.fixtures.js";

describe.each(testEngines())("search across sources in the app on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let djuu: FixtureSource;
  let mirror: FixtureSource;

  const search = (query: Record<string, string>) => app.inject({ url: "/api/forntend/indexsearch", query });

  beforeAll(async () => {
    // djuu answers 500 to every search; the mirror site answers.
    [djuu, mirror] = await Promise.all([djuuSource((site) => site.route("/search", status(500, "Internal Server Error"))), mirrorSource()]);
    testApp = await createTestApp(engine, { sourceAdapters: [djuu.entry, mirror.entry], sourceBreaker: { failureThreshold: 2, coolDownMs: 60_000 } });
    app = testApp.app;
    const { writes } = app.services;
    const [cat] = await writes.createCategories([{ name: "中文串烧", diyname: "zhongwen" }]);
    const item = { kind: "single" as const, artist: "周杰伦", playtype: "mp3" as const, categoryId: cat.id, status: "normal" as const, viewCount: 5 };
    await writes.createItems([
      { ...item, title: "夜曲", playUrl: "/media/demo/yequ.m4a", sourceSite: "local" },
      // Collected from djuu earlier: the catalogue answers for djuu's channel too.
      { ...item, title: "夜曲(DJ阿福 Rmx)", playUrl: "/media/demo/yequ-djuu.m4a", sourceSite: "djuu" },
    ]);
  });

  afterAll(async () => {
    await testApp?.close();
    await Promise.all([djuu?.close(), mirror?.close()]);
  });

  it("answers 200 with the local and the working source's hits, naming the failed source", async () => {
    const res = await search({ keyword: "夜曲" });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.code).toBe(1);
    expect(body.data.errors).toEqual([{ source: "djuu", msg: "搜索失败" }]);
    const list = body.data.list as { id: number | string; source: string; website: string; websitelogo: string }[];
    expect(list[0]).toMatchObject({ source: "local", name: "夜曲" });
    expect(list.filter((i) => i.source === "mirror").map((i) => i.id)).toEqual(["mirror:201001", "mirror:201003", "mirror:201002"]);
    expect(list.find((i) => i.source === "mirror")).toMatchObject({ website: "镜像DJ", websitelogo: "/static/sites/mirror.png" });
  });

  it("a source alone failing, asked by its channel, is still not a 5xx: the local catalogue answered", async () => {
    const res = await search({ keyword: "夜曲", channelid: "djuu" });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ errors: [{ source: "djuu", msg: "搜索失败" }], list: [{ source: "local", name: "夜曲(DJ阿福 Rmx)" }] });
    // That was djuu's second failure in a row: its breaker is open, the next search skips it at once.
    const skipped = await search({ keyword: "夜曲", channelid: "djuu", page: "2" });
    expect(skipped.statusCode).toBe(200);
    expect(skipped.json().data.errors).toEqual([{ source: "djuu", msg: "源站暂时不可用" }]);
    expect(djuu.searches()).toBe(2);
  });

  it("shows each source's health to admins only", async () => {
    const [row] = await testApp.database.db.insert(admins).values({ username: "health-boss", passwordHash: "x", status: 1 }).returning();
    const token = await sessionService(testApp.database.db).createAdminSession(row!.id);
    expect((await app.inject({ url: "/api/pandaadmin/sources/health" })).statusCode).toBe(401);

    const res = await app.inject({ url: "/api/pandaadmin/sources/health", headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(200);
    const sources = res.json().data.sources as Record<string, unknown>[];
    expect(sources.map((s) => s.code)).toEqual(["djuu", "mirror"]);
    expect(sources[0]).toMatchObject({
      name: "DJUU",
      state: "open",
      successRate: 0,
      consecutiveFailures: 2,
      calls: 2,
      failures: 2,
      skipped: 1,
      lastError: { kind: "http", at: expect.any(String) },
      retryAt: expect.any(String),
    });
    expect(sources[1]).toMatchObject({ name: "镜像DJ", state: "closed", successRate: 1, failures: 0, lastError: null, p50Ms: expect.any(Number), p95Ms: expect.any(Number) });

    const doc = (await app.inject({ url: "/api/docs/json" })).json();
    expect(doc.paths["/api/pandaadmin/sources/health"].get.tags).toEqual(["admin"]);
  });
});

describe.each(testEngines())("a hanging source in the app on %s", (engine) => {
  let testApp: TestApp;
  let djuu: FixtureSource;
  let mirror: FixtureSource;

  beforeAll(async () => {
    [djuu, mirror] = await Promise.all([djuuSource((site) => site.route("/search", hang), 400), mirrorSource()]);
    testApp = await createTestApp(engine, { sourceAdapters: [djuu.entry, mirror.entry] });
    const [cat] = await testApp.app.services.writes.createCategories([{ name: "中文串烧", diyname: "zhongwen" }]);
    await testApp.app.services.writes.createItems([
      { kind: "single", title: "夜曲", artist: "周杰伦", playUrl: "/media/demo/yequ.m4a", playtype: "mp3", sourceSite: "local", categoryId: cat.id, status: "normal", viewCount: 5 },
    ]);
  });

  afterAll(async () => {
    await testApp?.close();
    await Promise.all([djuu?.close(), mirror?.close()]);
  });

  it("answers with the catalogue's and the other site's hits within the hanging source's timeout + 100 ms", async () => {
    const started = performance.now();
    const res = await testApp.app.inject({ url: "/api/forntend/indexsearch", query: { keyword: "夜曲" } });
    const elapsed = performance.now() - started;
    expect(res.statusCode).toBe(200);
    expect(elapsed).toBeLessThan(400 + 100);
    const data = res.json().data;
    expect(data.errors).toEqual([{ source: "djuu", msg: "搜索超时" }]);
    expect(new Set((data.list as { source: string }[]).map((i) => i.source))).toEqual(new Set(["local", "mirror"]));
  });
});
