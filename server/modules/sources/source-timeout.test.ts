/**
 * An admin's per-source timeout (issue 12): PATCH timeoutMs on a built-in source applies to the
 * search's wait for it and to its fetcher at once, null goes back to the default, bad values are
 * refused with nothing changed, and every change writes its audit row. A generic source's
 * `timeout_ms` wins over its configuration's `timeoutMs`. 超级管理员 only.
 */
import { readFileSync } from "node:fs";
import { and, asc, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, sourceSites } from "../../db/schema/index.js";
import { createTestAdmin } from "../../testing/admins.js";
import { hang, startFixtureSite, type FixtureSite } from "../../testing/fixture-site.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { serveDjuu } from "./adapters/djuu.fixtures.js";
import { djuuSource, type FixtureSource } from "./source-search.fixtures.js";

const djuuConfig = JSON.parse(readFileSync(new URL("./adapters/djuu.generic.json", import.meta.url), "utf8")) as Record<string, unknown>;

describe.each(testEngines())("each source's timeout on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let djuu: FixtureSource;
  let mirrorSite: FixtureSite;
  let superAdmin: Awaited<ReturnType<typeof createTestAdmin>>;
  let editor: Awaited<ReturnType<typeof createTestAdmin>>;
  /** What the directory handed djuu's fetcher, in order. */
  const fetcherTimeouts: number[] = [];
  let keywordNo = 0;

  const patch = (code: string, body: unknown, headers = superAdmin.headers) =>
    app.inject({ method: "PATCH", url: `/api/pandaadmin/sources/${code}`, headers, payload: body as object });
  const listed = async (code: string) => {
    const res = await app.inject({ url: "/api/pandaadmin/sources", headers: superAdmin.headers });
    return (res.json().data.sources as { code: string; timeoutMs: number | null; timeoutDefault: boolean; defaultTimeoutMs: number | null }[]).find((s) => s.code === code);
  };
  const stored = async (code: string) =>
    (await testApp.database.db.select({ t: sourceSites.timeoutMs }).from(sourceSites).where(eq(sourceSites.code, code)))[0]?.t;
  const audits = async () =>
    (await testApp.database.db.select().from(auditLog).where(and(eq(auditLog.targetType, "source"), eq(auditLog.targetId, "djuu"))).orderBy(asc(auditLog.id))).map((r) => ({
      adminId: r.adminId,
      action: r.action,
      detail: r.detail as { before: Record<string, unknown>; after: Record<string, unknown>; patch?: Record<string, unknown> },
    }));
  /** One search over every source (no channelid = all; a new keyword each time: no cached answer); how long it took. */
  async function searchAll(): Promise<{ ms: number; errors: { source: string; msg: string }[] }> {
    keywordNo += 1;
    const began = performance.now();
    const res = await app.inject({ url: "/api/forntend/indexsearch", query: { keyword: `夜曲${keywordNo}` } });
    const ms = performance.now() - began;
    expect(res.statusCode).toBe(200);
    return { ms, errors: res.json().data.errors };
  }

  beforeAll(async () => {
    // djuu never answers a search: the search waits for it as long as its timeout allows.
    djuu = await djuuSource((site) => site.route("/search", hang));
    const entry = {
      ...djuu.entry,
      setTimeoutMs: (ms: number) => {
        fetcherTimeouts.push(ms);
        djuu.fetcher.setTimeoutMs(ms);
      },
    };
    mirrorSite = await startFixtureSite();
    serveDjuu(mirrorSite);
    testApp = await createTestApp(engine, {
      sourceAdapters: [entry],
      sourceNetwork: { allowAddresses: [mirrorSite.host] },
      sourceBreaker: { failureThreshold: 100, coolDownMs: 60_000 },
    });
    app = testApp.app;
    superAdmin = await createTestAdmin(testApp.database.db, { role: "super" });
    editor = await createTestAdmin(testApp.database.db, { role: "editor" });
  });

  afterAll(async () => {
    await testApp?.close();
    await Promise.all([djuu?.close(), mirrorSite?.close()]);
  });

  it("lists every source's timeout: the built-in default until an admin sets one", async () => {
    expect(await listed("djuu")).toMatchObject({ timeoutMs: 3_000, timeoutDefault: true, defaultTimeoutMs: 3_000 });
    expect(await listed("local")).toMatchObject({ timeoutMs: null, defaultTimeoutMs: null });
    expect(fetcherTimeouts.at(-1)).toBe(3_000);
  });

  it("a built-in source's timeout set to 1000 ms: a search waits for it about 1 s and names it in errors", async () => {
    const res = await patch("djuu", { timeoutMs: 1_000 });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ code: "djuu", timeoutMs: 1_000, timeoutDefault: false, defaultTimeoutMs: 3_000 });
    expect(await stored("djuu")).toBe(1_000);
    expect(fetcherTimeouts.at(-1)).toBe(1_000);
    expect(app.services.sourceDirectory.get("djuu")?.timeoutMs).toBe(1_000);

    const { ms, errors } = await searchAll();
    expect(errors).toEqual([{ source: "djuu", msg: "搜索超时" }]);
    expect(ms).toBeGreaterThanOrEqual(950);
    expect(ms).toBeLessThan(1_600);
  });

  it("reset to null: back to the default", async () => {
    const res = await patch("djuu", { timeoutMs: null });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ timeoutMs: 3_000, timeoutDefault: true });
    expect(await stored("djuu")).toBeNull();
    expect(fetcherTimeouts.at(-1)).toBe(3_000);
    const { ms, errors } = await searchAll();
    expect(errors.map((e) => e.source)).toEqual(["djuu"]);
    expect(ms).toBeGreaterThanOrEqual(2_900);
  });

  it("refuses timeouts out of range or not whole numbers with a Chinese message, changing nothing", async () => {
    await patch("djuu", { timeoutMs: 2_000 });
    const before = await audits();
    for (const timeoutMs of [100, 499, 30_001, 60_000, "abc", 1_500.5, true]) {
      const res = await patch("djuu", { timeoutMs });
      expect(res.statusCode, String(timeoutMs)).toBe(400);
      expect(res.json()).toMatchObject({ code: 0, msg: "超时须为 500 到 30000 之间的整数毫秒" });
    }
    expect(await stored("djuu")).toBe(2_000);
    expect(await audits()).toEqual(before);
    expect((await patch("nosuch", { timeoutMs: 1_000 })).statusCode).toBe(404);
  });

  it("editors may not change it", async () => {
    const res = await patch("djuu", { timeoutMs: 1_000 }, editor.headers);
    expect(res.statusCode).toBe(403);
    expect(res.json().msg).toBe("需要超级管理员权限");
    expect(await stored("djuu")).toBe(2_000);
  });

  it("writes a source.update audit row with the timeout before and after", async () => {
    const rows = await audits();
    expect(rows.map((r) => [r.adminId, r.action])).toEqual([
      [superAdmin.id, "source.update"],
      [superAdmin.id, "source.update"],
      [superAdmin.id, "source.update"],
    ]);
    expect(rows[0]!.detail.before).toMatchObject({ timeoutMs: 3_000, timeoutDefault: true });
    expect(rows[0]!.detail.after).toMatchObject({ timeoutMs: 1_000, timeoutDefault: false });
    expect(rows[0]!.detail.patch).toEqual({ timeoutMs: 1_000 });
    expect(rows[1]!.detail.after).toMatchObject({ timeoutMs: 3_000, timeoutDefault: true });
    expect(rows[1]!.detail.patch).toEqual({ timeoutMs: null });
  });

  it("a generic source: its config's timeoutMs is the default, the admin's timeout wins over it", async () => {
    const config = { ...djuuConfig, code: "mirror", name: "镜像DJ", baseUrl: mirrorSite.url, bases: { api: `${mirrorSite.url}/app/v1` }, hosts: [mirrorSite.host], timeoutMs: 2_500 };
    expect((await app.inject({ method: "PUT", url: "/api/pandaadmin/sources/mirror", headers: superAdmin.headers, payload: config })).statusCode).toBe(201);
    expect(await listed("mirror")).toMatchObject({ timeoutMs: 2_500, timeoutDefault: true, defaultTimeoutMs: 2_500 });
    expect(app.services.sourceDirectory.get("mirror")?.timeoutMs).toBe(2_500);

    expect((await patch("mirror", { timeoutMs: 800 })).json().data).toMatchObject({ timeoutMs: 800, timeoutDefault: false, defaultTimeoutMs: 2_500 });
    expect(app.services.sourceDirectory.get("mirror")?.timeoutMs).toBe(800);
    // Replacing the config keeps the admin's timeout.
    expect((await app.inject({ method: "PUT", url: "/api/pandaadmin/sources/mirror", headers: superAdmin.headers, payload: { ...config, timeoutMs: 4_000 } })).statusCode).toBe(200);
    expect(app.services.sourceDirectory.get("mirror")?.timeoutMs).toBe(800);
    expect((await patch("mirror", { timeoutMs: null })).json().data).toMatchObject({ timeoutMs: 4_000, timeoutDefault: true, defaultTimeoutMs: 4_000 });
    expect(app.services.sourceDirectory.get("mirror")?.timeoutMs).toBe(4_000);
  });
});
