/**
 * The collection admin API (issue 11): start one source or all, watch a job's progress while it
 * runs, read its page log, cancel. Admins only; bad input is a 4xx with a Chinese message.
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asc, eq } from "drizzle-orm";
import { admins, auditLog } from "../../db/schema/index.js";
import { startFixtureSite, type FixtureSite } from "../../testing/fixture-site.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { sessionService } from "../accounts/session-service.js";
import { djuuEntry, serveCollectDjuu } from "./collect.fixtures.js";

describe.each(testEngines())("collection admin API on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let site: FixtureSite;
  let djuu: ReturnType<typeof djuuEntry>;
  let auth: { authorization: string };
  let adminId: number;
  const audits = async (action: string) =>
    (await testApp.database.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(asc(auditLog.id))).map((r) => ({ adminId: r.adminId, targetId: r.targetId, detail: r.detail }));

  beforeAll(async () => {
    site = serveCollectDjuu(await startFixtureSite(), { latencyMs: 40, failures: false });
    djuu = djuuEntry(site);
    testApp = await createTestApp(engine, { sourceAdapters: [djuu.entry] });
    app = testApp.app;
    const [row] = await testApp.database.db.insert(admins).values({ username: "collect-boss", passwordHash: "x", status: 1 }).returning();
    adminId = row!.id;
    auth = { authorization: `Bearer ${await sessionService(testApp.database.db).createAdminSession(row!.id)}` };
  });
  afterAll(async () => {
    await testApp?.close();
    djuu?.close();
    await site?.close();
  });

  const start = (body: unknown, headers = auth) => app.inject({ method: "POST", url: "/api/pandaadmin/collect/start", payload: body as object, headers });

  it("is for admins only", async () => {
    for (const [method, url] of [
      ["POST", "/api/pandaadmin/collect/start"],
      ["GET", "/api/pandaadmin/collect/jobs"],
      ["GET", "/api/pandaadmin/collect/jobs/1"],
      ["POST", "/api/pandaadmin/collect/jobs/1/cancel"],
    ] as const) {
      const res = await app.inject({ method, url, payload: method === "POST" ? {} : undefined });
      expect(res.statusCode, url).toBe(401);
    }
  });

  it("refuses an unknown or disabled source and bad input with a Chinese message", async () => {
    const unknown = await start({ source: "vvvdj" }); // a built-in site, not enabled here
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 0, msg: "未知或未启用的来源：vvvdj" });
    const malformed = await start({ source: "不是 代码" });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().msg).toBe("来源代码格式不正确");
    const badId = await app.inject({ url: "/api/pandaadmin/collect/jobs/abc", headers: auth });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().msg).toBe("任务编号不正确");
    const missing = await app.inject({ url: "/api/pandaadmin/collect/jobs/999999", headers: auth });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().msg).toBe("采集任务不存在");
  });

  it("starts a job, answers the same job when started again, and shows its progress while it runs", async () => {
    const first = await start({ source: "djuu" });
    expect(first.statusCode).toBe(200);
    const [queued] = first.json().data.jobs;
    expect(queued).toMatchObject({ created: true, job: { source: "djuu", trigger: "manual", state: "queued", pagesDone: 0, unitIndex: 0, nextPage: 1 } });
    expect(queued.job.planSize).toBeGreaterThan(20);
    expect(queued.job.currentUnit).toEqual({ type: "chart", key: "day:mix", name: "日榜·串烧", kind: "mix", maxPages: 1 });
    const again = await start({});
    expect(again.json().data.jobs).toEqual([{ created: false, job: expect.objectContaining({ id: queued.job.id }) }]);
    // Only the new job is a change: one audit row.
    expect(await audits("collect.start")).toEqual([
      { adminId, targetId: String(queued.job.id), detail: expect.objectContaining({ after: expect.objectContaining({ source: "djuu", state: "queued" }), requested: "djuu" }) },
    ]);

    // The charts panel's DJUU board, asked before the job: empty, and kept (15 s) until told.
    const board = async () => (await app.inject({ url: "/api/forntend/getrank?site=djuu&type=mix&period=week&board=site" })).json().data;
    expect((await board()).list).toEqual([]);

    // This instance's runner (main.ts starts it; here the test does): readable while it works.
    const running = app.services.collector.runner.runOnce();
    let seen: Record<string, unknown> | undefined;
    for (let i = 0; i < 200 && !seen; i++) {
      const list = await app.inject({ url: "/api/pandaadmin/collect/jobs", headers: auth });
      const job = list.json().data.jobs.find((j: { id: number }) => j.id === queued.job.id);
      if (job.state === "running" && job.pagesDone > 0) seen = job;
      else await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(seen).toMatchObject({ state: "running", attempts: 1, errors: 0, lastError: null, finishedAt: null });
    expect(seen!.itemsFound).toBeGreaterThan(0);
    expect(seen!.startedAt).toEqual(expect.any(String));
    expect(seen!.lockedUntil).toEqual(expect.any(String));
    await running;

    // The stored chart dropped the kept empty board at once (services wire the collector to it).
    const collectedBoard = await board();
    expect(collectedBoard.list[0]).toMatchObject({ rank: 1, name: "DJ小鱼-全中文国粤语Club音乐串烧", external: true, website: "DJUU" });
    expect(collectedBoard.list[0].palyurl).toBe("/api/forntend/source-play?source=djuu&id=501");

    const detail = await app.inject({ url: `/api/pandaadmin/collect/jobs/${queued.job.id}`, headers: auth });
    expect(detail.statusCode).toBe(200);
    const { job, plan, pages } = detail.json().data;
    expect(job).toMatchObject({ state: "done", currentUnit: null, lockedUntil: null, unitIndex: plan.length });
    expect(pages).toHaveLength(job.pagesDone);
    expect(pages[0]).toMatchObject({ unitIndex: 0, page: 1, error: null });
    expect(pages.reduce((n: number, p: { newItems: number }) => n + p.newItems, 0)).toBe(job.itemsNew);
    expect(plan.find((u: { type: string }) => u.type === "category")).toMatchObject({ key: "4", name: "中文Remix", kind: "single", maxPages: 3 });

    const late = await app.inject({ method: "POST", url: `/api/pandaadmin/collect/jobs/${queued.job.id}/cancel`, headers: auth });
    expect(late.statusCode).toBe(409);
    expect(late.json().msg).toBe("采集任务已结束，不能取消");
    expect(await audits("collect.cancel")).toEqual([]);
  });

  it("cancels a queued job", async () => {
    const [{ job }] = (await start({ source: "djuu" })).json().data.jobs;
    const res = await app.inject({ method: "POST", url: `/api/pandaadmin/collect/jobs/${job.id}/cancel`, headers: auth });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: job.id, state: "cancelled", currentUnit: null });
    expect(res.json().data.finishedAt).toEqual(expect.any(String));
    expect(await audits("collect.cancel")).toEqual([{ adminId, targetId: String(job.id), detail: expect.objectContaining({ after: expect.objectContaining({ state: "cancelled" }) }) }]);
  });

  it("is in the OpenAPI document", async () => {
    const doc = (await app.inject({ url: "/api/docs/json" })).json();
    expect(doc.paths["/api/pandaadmin/collect/start"].post.tags).toEqual(["admin"]);
    expect(doc.paths["/api/pandaadmin/collect/jobs"].get.summary).toContain("采集任务");
    expect(doc.paths["/api/pandaadmin/collect/jobs/{id}"].get).toBeDefined();
    expect(doc.paths["/api/pandaadmin/collect/jobs/{id}/cancel"].post).toBeDefined();
  });
});
