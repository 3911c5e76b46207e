/**
 * The suites' recycle bin (ADR 0065): a delete moves a suite there, out of every public answer
 * at once; 回收站 (trash=1) lists it; 还原 brings it back with the status it had; 彻底删除 and the
 * 30-day purge delete it for good; all audited.
 */
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, items } from "../../db/schema/index.js";
import { createTestAdmin } from "../../testing/admins.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";

const TITLE = "回收站测试套曲";

describe.each(testEngines())("the suites' recycle bin on %s", (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: Awaited<ReturnType<typeof createTestAdmin>>;
  let suite: number;
  let hidden: number;
  let other: number;

  const call = (method: "GET" | "POST" | "DELETE" | "PUT", url: string, payload?: object) =>
    app.inject({ method, url, headers: admin.headers, ...(payload ? { payload } : {}) });
  const listed = async (trash: "0" | "1") =>
    (await call("GET", `/pandaadmin/cms/archives/index?trash=${trash}&limit=100`)).json().rows.map((r: { id: number }) => r.id) as number[];
  const audits = (action: string) => t.database.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(auditLog.id);
  /** Every public answer that shows the suite when it is in use. */
  const publicAnswers = async () => ({
    detail: (await app.inject({ url: `/api/forntend/getmusicinfo?id=${suite}` })).statusCode,
    search: (await app.inject({ url: `/api/forntend/indexsearch?keyword=${encodeURIComponent(TITLE)}&specify=local` })).body.includes(TITLE),
    category: (await app.inject({ url: "/api/forntend/getsort?diyname=binned" })).body.includes(TITLE),
    home: (await app.inject({ url: "/api/forntend/index" })).body.includes(TITLE),
    sitemap: (await app.inject({ url: "/sitemap-items-1.xml" })).body.includes(`/sutie/${suite}.html`),
  });
  const shown = { detail: 200, search: true, category: true, home: true, sitemap: true };
  const gone = { detail: 404, search: false, category: false, home: false, sitemap: false };

  beforeAll(async () => {
    t = await createTestApp(engine);
    app = t.app;
    admin = await createTestAdmin(t.database.db, { role: "editor" });
    const w = app.services.writes;
    const [category] = await w.createCategories([{ name: "回收站分类", diyname: "binned", modelId: 2 }]);
    const item = (title: string, status: "normal" | "hidden" = "normal") => ({ kind: "mix" as const, title, playUrl: "/media/x.mp3", sourceSite: "local", categoryId: category!.id, status });
    [suite, hidden, other] = await w.createItems([item(TITLE), item("禁用的套曲", "hidden"), item("另一条套曲")]);
  });
  afterAll(() => t?.close());

  /** The back office's 套曲数 of the test's category. */
  const categoryCount = async () =>
    ((await call("GET", "/api/pandaadmin/category/index?search=回收站分类")).json().rows as { diyname: string; count: number }[]).find((r) => r.diyname === "binned")?.count;

  it("a deleted suite leaves every public answer and the list, waits in 回收站, and comes back on 还原", async () => {
    expect(await publicAnswers()).toEqual(shown); // kept answers in memory now
    expect(await categoryCount()).toBe(3);
    expect((await call("DELETE", `/api/sutie/${suite}`)).json()).toMatchObject({ code: 1, msg: "删除成功", data: { ids: [suite] } });
    expect(await publicAnswers()).toEqual(gone);
    // The category's 套曲数 leaves out what is in the bin.
    expect(await categoryCount()).toBe(2);
    expect(await listed("0")).not.toContain(suite);
    expect(await listed("1")).toEqual([suite]);
    // The bin's row says when it went there (China time); the list outside it says nothing.
    const binRow = (await call("GET", "/pandaadmin/cms/archives/index?trash=1")).json().rows[0] as { deletetime: number; deletetime_text: string };
    expect(Math.abs(binRow.deletetime - Date.now() / 1000)).toBeLessThan(60);
    expect(binRow.deletetime_text).toBe(new Date((binRow.deletetime + 8 * 3600) * 1000).toISOString().slice(0, 19).replace("T", " "));
    expect((await call("GET", "/pandaadmin/cms/archives/index?trash=0&limit=1")).json().rows[0]).toMatchObject({ deletetime: null, deletetime_text: "" });
    // The row is still there, hidden, with the status to restore.
    const [row] = await t.database.db.select().from(items).where(eq(items.id, suite));
    expect(row).toMatchObject({ status: "hidden", deletedStatus: "normal", deletedAt: expect.any(Date) });
    // In the bin it is neither edited, re-enabled nor deleted again.
    expect((await call("GET", `/api/pandaadmin/suites/${suite}`)).statusCode).toBe(404);
    expect((await call("POST", "/api/sutie/status", { ids: [suite], status: "normal" })).statusCode).toBe(404);
    expect((await call("DELETE", `/api/sutie/${suite}`)).json()).toMatchObject({ code: 0, msg: "套曲不存在" });
    expect(await publicAnswers()).toEqual(gone);

    expect((await call("POST", "/api/sutie/restore", { ids: [suite] })).json()).toMatchObject({ code: 1, msg: "还原成功", data: { ids: [suite] } });
    expect(await publicAnswers()).toEqual(shown);
    expect(await listed("1")).toEqual([]);
    expect(await listed("0")).toContain(suite);
    const [deleted] = await audits("suite.delete");
    expect(deleted!.detail).toMatchObject({ before: { id: suite, status: "normal", deletedAt: null }, after: { status: "hidden", deletedAt: expect.any(String) } });
    const [restored] = await audits("suite.restore");
    expect(restored).toMatchObject({ adminId: admin.id, targetId: String(suite) });
    expect(restored!.detail).toMatchObject({ after: { status: "normal", deletedAt: null } });
  });

  it("restores a disabled suite disabled; refuses suites not in the bin; 彻底删除 deletes for good", async () => {
    await call("DELETE", "/api/sutie/batch", { ids: [hidden, other] });
    expect(await listed("1")).toEqual([other, hidden]);
    expect((await call("POST", "/api/sutie/restore", { ids: [hidden] })).statusCode).toBe(200);
    expect((await t.database.db.select({ status: items.status }).from(items).where(eq(items.id, hidden)))[0]!.status).toBe("hidden");

    for (const url of ["/api/sutie/restore", "/api/sutie/purge"]) {
      const res = await call("POST", url, { ids: [suite] });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().msg).toBe("套曲不在回收站中");
      expect((await call("POST", url, { ids: [other, suite] })).json().msg).toBe("部分套曲不存在");
    }
    expect((await call("POST", "/api/sutie/purge", { ids: [other] })).json()).toMatchObject({ code: 1, msg: "已彻底删除", data: { ids: [other] } });
    expect(await t.database.db.select().from(items).where(eq(items.id, other))).toEqual([]);
    const [purged] = await audits("suite.purge");
    expect(purged).toMatchObject({ adminId: admin.id, targetId: String(other) });
    expect(purged!.detail).toMatchObject({ before: { id: other, title: "另一条套曲" }, after: null });
  });

  it("purges what has been in the bin for 30 days, and only that, as the site", async () => {
    await call("DELETE", "/api/sutie/batch", { ids: [suite, hidden] });
    // The suite went to the bin 31 days ago.
    await t.database.db.execute(sql`update items set deleted_at = now() - interval '31 days' where id = ${suite}`); // behind the write service's back
    expect(await app.services.suiteList.purgeExpired()).toBe(1);
    expect(await t.database.db.select().from(items).where(eq(items.id, suite))).toEqual([]);
    expect(await listed("1")).toEqual([hidden]);
    const site = (await audits("suite.purge")).at(-1)!;
    expect(site).toMatchObject({ adminId: null, targetId: String(suite) });
    expect(await app.services.suiteList.purgeExpired()).toBe(0);
  });

  it("answers 400 for a bad trash value", async () => {
    const res = await call("GET", "/pandaadmin/cms/archives/index?trash=2");
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe("trash 只能是 0 或 1");
  });
});
