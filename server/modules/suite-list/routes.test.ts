/**
 * The back office's suites (issue 12, ADR 0028): the table in the CMS addon's conventions,
 * deletes and enable/disable, with their audit rows, on both engines. Who may call them at all
 * is server/route-access.test.ts's matrix; here: behaviour, bad input and nothing changed.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, items } from "../../db/schema/index.js";
import { createTestAdmin } from "../../testing/admins.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { createTestUser } from "../../testing/users.js";
import { registryFollowing } from "../../lib/cache-tags.js";
import { chinaDateTime, suiteListService } from "./service.js";

describe.each(testEngines())("the back office's suites on %s", (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let editor: { id: number; headers: { authorization: string } };
  let superAdmin: { id: number; headers: { authorization: string } };
  const cat: Record<string, number> = {};
  const mixes: number[] = []; // ids in creation order
  let single: number;

  const table = (query: Record<string, string> = {}, headers: Record<string, string> = editor.headers) =>
    app.inject({ url: "/pandaadmin/cms/archives/index", query, headers });
  const ids = (res: { json(): { rows: { id: number }[] } }) => res.json().rows.map((r) => r.id);
  const del = (url: string, body?: object, headers: Record<string, string> = editor.headers) =>
    app.inject({ method: "DELETE", url, headers, ...(body ? { payload: body } : {}) });
  // Items in use: a deleted suite waits in the recycle bin (ADR 0065; recycle-bin.test.ts).
  const count = async () => (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(items).where(isNull(items.deletedAt)))[0]!.n;
  const audits = (action: string) =>
    t.database.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(auditLog.id);
  const publicAnswer = (id: number) => app.inject({ url: `/api/forntend/getmusicinfo?id=${id}` });

  beforeAll(async () => {
    t = await createTestApp(engine);
    app = t.app;
    const db = t.database.db;
    editor = await createTestAdmin(db, { role: "editor" });
    superAdmin = await createTestAdmin(db, { role: "super" });
    const w = app.services.writes;
    [cat.manyao, cat.digao, cat.danqu] = (await w.createCategories([
      { name: "慢摇串烧", diyname: "manyao", modelId: 2 },
      { name: "迪高串烧", diyname: "digao", modelId: 2 },
      { name: "DJ单曲", diyname: "danqu", modelId: 1 },
    ])).map((c) => c.id);
    const base = Date.UTC(2026, 10, 1, 4, 0, 0); // 2026-11-01 12:00 in China
    const titles = ["夜曲串烧 Vol.1", "慢摇精选", "ＤＪ阿福 夜店", "Club Remix 2026", "迪高舞曲", "南宁DJ小鱼 夜曲"];
    for (const [i, title] of titles.entries()) {
      const [id] = await w.createItems([
        {
          kind: "mix",
          title,
          playUrl: `/media/demo-${i}.mp3`,
          sourceSite: "local",
          categoryId: i % 2 === 0 ? cat.manyao : cat.digao,
          // Publish times run against the ids, so sorting by one is not sorting by the other.
          publishedAt: new Date(base - i * 86_400_000),
          price: i,
        },
      ]);
      mixes.push(id!);
    }
    [single] = await w.createItems([{ kind: "single", title: "夜曲 单曲", playUrl: "/media/s.mp3", sourceSite: "local", categoryId: cat.danqu }]);
  });

  afterAll(() => t?.close());

  it("answers the bare {total, rows}: suites only, newest added first, 10 a page", async () => {
    const res = await table();
    expect(res.statusCode).toBe(200);
    expect(res.json().total).toBe(6);
    expect(ids(res)).toEqual([...mixes].reverse());
    expect(res.json()).not.toHaveProperty("code");
    const first = res.json().rows.at(-1);
    expect(first).toEqual({
      id: mixes[0],
      channel_id: cat.manyao,
      model_id: 2,
      title: "夜曲串烧 Vol.1",
      image: "",
      diyname: "",
      price: 0,
      views: 0,
      comments: 0,
      weigh: 0,
      createtime: expect.any(Number),
      updatetime: expect.any(Number),
      publishtime: Date.UTC(2026, 10, 1, 4, 0, 0) / 1000,
      status: "normal",
      status_text: "正常",
      publishtime_text: "2026-11-01 12:00:00",
      deletetime: null,
      deletetime_text: "",
      url: `/sutie/${mixes[0]}.html`,
      channel: { name: "慢摇串烧", diyname: "manyao" },
    });
    // model_id 1: the singles.
    const singles = await table({ model_id: "1" });
    expect(ids(singles)).toEqual([single]);
    expect(singles.json().rows[0]).toMatchObject({ model_id: 1, channel: { name: "DJ单曲" } });
  });

  it("pages with offset/limit or page, and sorts by the columns", async () => {
    const page = await table({ offset: "2", limit: "2" });
    expect(page.json().total).toBe(6);
    expect(ids(page)).toEqual([mixes[3], mixes[2]]);
    expect(ids(await table({ page: "3", limit: "2" }))).toEqual([mixes[1], mixes[0]]);
    expect(ids(await table({ sort: "id", order: "asc", limit: "3" }))).toEqual(mixes.slice(0, 3));
    // Published earliest first is the last created here.
    expect(ids(await table({ sort: "publishtime", order: "asc" }))).toEqual([...mixes].reverse());
    expect(ids(await table({ sort: "publishtime", order: "desc" }))).toEqual(mixes);
    expect(ids(await table({ sort: "price", order: "desc", limit: "1" }))).toEqual([mixes[5]]);
    // The original's default sort key: every row weighs 0, so the id decides.
    expect(ids(await table({ sort: "weigh" }))).toEqual([...mixes].reverse());
    expect((await table({ limit: "0" })).json().rows).toHaveLength(6);
  });

  it("filters channel_id with IN (and =), publish times, and searches the id or the title", async () => {
    const filter = (f: object, op: object) => table({ filter: JSON.stringify(f), op: JSON.stringify(op) });
    const manyao = await filter({ channel_id: String(cat.manyao) }, { channel_id: "IN" });
    expect(ids(manyao)).toEqual([mixes[4], mixes[2], mixes[0]]);
    expect(manyao.json().total).toBe(3);
    expect((await filter({ channel_id: `${cat.manyao},${cat.digao}` }, { channel_id: "IN" })).json().total).toBe(6);
    expect(ids(await filter({ channel_id: cat.digao }, {}))).toEqual([mixes[5], mixes[3], mixes[1]]);
    expect((await filter({ channel_id: String(cat.danqu) }, { channel_id: "IN" })).json().total).toBe(0);
    expect(ids(await filter({ publishtime: "2026-10-31 00:00 - 2026-11-02 00:00" }, { publishtime: "RANGE" }))).toEqual([mixes[1], mixes[0]]);
    expect(ids(await table({ search: "夜曲" }))).toEqual([mixes[5], mixes[0]]);
    expect(ids(await table({ search: "夜" }))).toEqual([mixes[5], mixes[2], mixes[0]]);
    expect(ids(await table({ search: "club remix" }))).toEqual([mixes[3]]);
    expect(ids(await table({ search: "100%" }))).toEqual([]);
    // A number is the id, or a title that contains it (Club Remix 2026).
    expect(ids(await table({ search: String(mixes[1]) }))).toContain(mixes[1]);
    expect(ids(await table({ search: "2026" }))).toEqual([mixes[3]]);
    // Search and filter together.
    const both = await table({ search: "夜", filter: JSON.stringify({ channel_id: String(cat.manyao) }), op: JSON.stringify({ channel_id: "IN" }) });
    expect(ids(both)).toEqual([mixes[2], mixes[0]]);
  });

  it("caps a keyword's count (capped: true), keeps exact totals without one, and drops them on a change", async () => {
    const services = app.services;
    const capped = suiteListService(t.database.db, { writes: services.writes, audit: services.audit, caches: registryFollowing(services.bus), searchCountCap: 2 });
    const answer = await capped.table({ search: "夜" });
    expect(answer).toMatchObject({ total: 2, capped: true });
    expect(answer.rows.map((r) => r.id)).toEqual([mixes[5], mixes[2], mixes[0]]);
    expect(await capped.table({ search: "夜曲" })).toMatchObject({ total: 2 });
    expect(await capped.table({ search: "夜曲" })).not.toHaveProperty("capped");
    // The kept total follows a new suite at once (the items event drops it).
    expect((await capped.table({})).total).toBe(6);
    const [extra] = await services.writes.createItems([{ kind: "mix", title: "临时", playUrl: "/media/x.mp3", sourceSite: "local" }]);
    expect((await capped.table({})).total).toBe(7);
    await services.writes.deleteItems([extra!]);
    expect((await capped.table({})).total).toBe(6);
  });

  it("answers 400 with a Chinese message for what it cannot read", async () => {
    for (const [query, msg] of [
      [{ filter: "{bad json" }, "筛选条件无效"],
      [{ filter: JSON.stringify({ "channel_id;drop": "1" }) }, "筛选条件无效"],
      [{ filter: JSON.stringify({ play_url: "x" }) }, "筛选条件无效"],
      [{ filter: JSON.stringify({ channel_id: "a,b" }), op: JSON.stringify({ channel_id: "IN" }) }, "筛选条件无效"],
      [{ filter: JSON.stringify({ channel_id: "1" }), op: JSON.stringify({ channel_id: "EXPLODE" }) }, "筛选运算符无效"],
      [{ sort: "play_url" }, "排序字段无效"],
      [{ order: "sideways" }, "排序方向只能是 asc 或 desc"],
      [{ limit: "-1" }, "分页参数无效"],
      [{ model_id: "3" }, "内容模型只能是 1 (单曲) 或 2 (套曲)"],
    ] as const) {
      const res = await table(query as Record<string, string>);
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json()).toMatchObject({ code: 0, msg });
    }
  });

  it("refuses guests and members (401) on every call, and changes nothing", async () => {
    const member = await createTestUser(app);
    for (const headers of [{}, { authorization: `Bearer ${member.token}` }] as Record<string, string>[]) {
      expect((await table({}, headers)).statusCode).toBe(401);
      expect((await del(`/api/sutie/${mixes[0]}`, undefined, headers)).statusCode).toBe(401);
      expect((await del("/api/sutie/batch", { ids: [mixes[0]] }, headers)).statusCode).toBe(401);
      expect((await app.inject({ method: "POST", url: "/api/sutie/status", payload: { ids: [mixes[0]], status: "hidden" }, headers })).statusCode).toBe(401);
    }
    expect(await count()).toBe(7);
  });

  it("lists every category for the filter", async () => {
    const res = await app.inject({ url: "/api/pandaadmin/sutie/channels", headers: editor.headers });
    expect(res.json().data.map((c: { name: string }) => c.name)).toEqual(["慢摇串烧", "迪高串烧", "DJ单曲"]);
  });

  it("disables and enables suites: audited, gone from the public site while disabled", async () => {
    const id = mixes[1]!;
    expect((await publicAnswer(id)).statusCode).toBe(200); // kept answer now in memory
    const status = (body: object) => app.inject({ method: "POST", url: "/api/sutie/status", payload: body, headers: superAdmin.headers });
    const res = await status({ ids: [id], status: "hidden" });
    expect(res.json()).toMatchObject({ code: 1, msg: "状态已更新", data: { ids: [id] } });
    expect((await table({ filter: JSON.stringify({ id }) })).json().rows[0]).toMatchObject({ status: "hidden", status_text: "禁用" });
    expect((await publicAnswer(id)).statusCode).toBe(404);
    const [row] = await audits("suite.status");
    expect(row).toMatchObject({ adminId: superAdmin.id, targetType: "suite", targetId: String(id) });
    expect(row!.detail).toMatchObject({ before: { id, status: "normal", title: "慢摇精选" }, after: { status: "hidden" } });
    // Unknown ids and bad bodies: nothing changes.
    expect((await status({ ids: [mixes[2], 99_999_999], status: "hidden" })).statusCode).toBe(404);
    expect((await status({ ids: [mixes[2]], status: "gone" })).json()).toMatchObject({ code: 0, msg: "状态只能是 normal 或 hidden" });
    expect((await t.database.db.select().from(items).where(and(eq(items.id, mixes[2]!), eq(items.status, "normal")))).length).toBe(1);
    expect(await status({ ids: [id], status: "normal" })).toMatchObject({ statusCode: 200 });
    expect((await publicAnswer(id)).statusCode).toBe(200);
    expect(await audits("suite.status")).toHaveLength(2);
  });

  it("refuses unknown ids and bad bodies with a message, deleting nothing", async () => {
    for (const [url, body, status, msg] of [
      ["/api/sutie/99999999", undefined, 404, "套曲不存在"],
      ["/api/sutie/abc", undefined, 400, "套曲编号无效"],
      ["/api/sutie/0", undefined, 400, "套曲编号无效"],
      ["/api/sutie/batch", { ids: [mixes[0], 99_999_999] }, 404, "部分套曲不存在"],
      ["/api/sutie/batch", { ids: [] }, 400, "请选择要删除的套曲"],
      ["/api/sutie/batch", {}, 400, "请选择要删除的套曲"],
      ["/api/sutie/batch", { ids: ["x"] }, 400, "请选择要删除的套曲"],
      ["/api/sutie/batch", { ids: Array.from({ length: 101 }, (_, i) => i + 1) }, 400, "一次最多删除 100 条"],
    ] as const) {
      const res = await del(url, body);
      expect(res.statusCode, `${url} ${JSON.stringify(body)}`).toBe(status);
      expect(res.json()).toMatchObject({ code: 0, msg });
    }
    expect(await count()).toBe(7);
    expect(await audits("suite.delete")).toHaveLength(0);
  });

  it("deletes one suite and a batch: audited with the record before and in the recycle bin after, gone from the public site at once", async () => {
    const [one, a, b] = [mixes[0]!, mixes[2]!, mixes[3]!];
    for (const id of [one, a, b]) expect((await publicAnswer(id)).statusCode).toBe(200);
    const single = await del(`/api/sutie/${one}`);
    expect(single.json()).toMatchObject({ code: 1, msg: "删除成功", data: { ids: [one] } });
    expect((await publicAnswer(one)).statusCode).toBe(404);
    const batch = await del("/api/sutie/batch", { ids: [b, a, a] });
    expect(batch.json()).toMatchObject({ code: 1, msg: "批量删除成功", data: { ids: [a, b] } });
    for (const id of [a, b]) expect((await publicAnswer(id)).statusCode).toBe(404);
    expect(await count()).toBe(4);
    const left = await table();
    expect(ids(left)).toEqual([mixes[5], mixes[4], mixes[1]]);
    expect(left.json().total).toBe(3);
    const rows = await audits("suite.delete");
    expect(rows.map((r) => [r.adminId, r.targetId])).toEqual([
      [editor.id, String(one)],
      [editor.id, String(a)],
      [editor.id, String(b)],
    ]);
    expect(rows[0]!.detail).toMatchObject({ before: { id: one, kind: "mix", title: "夜曲串烧 Vol.1", categoryId: cat.manyao }, after: { id: one, status: "hidden", deletedAt: expect.any(String) } });
    expect(rows[1]!.detail).toMatchObject({ before: { id: a, title: "ＤＪ阿福 夜店" }, batch: [b, a] });
    expect((await del(`/api/sutie/${one}`)).statusCode).toBe(404);
  });

  it("formats China time", () => {
    expect(chinaDateTime(Date.UTC(2026, 0, 1, 16, 5, 9) / 1000)).toBe("2026-01-02 00:05:09");
  });
});
