/**
 * The back office's collected-data calls (issue 11, ADR 0024): who may call them, what they
 * refuse, and what they answer, on both engines. The page of a processed item is rendered by
 * the real web build.
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureWebBuild } from "../../../e2e/web-server.js";
import { admins, auditLog, collectedItems, items } from "../../db/schema/index.js";
import { sessionService } from "../accounts/session-service.js";
import { insertCollected } from "../../testing/collected.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { eq, sql } from "drizzle-orm";

describe.each(testEngines())("collected data in the back office on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let headers: { authorization: string };
  let adminId: number;
  const auditRows = async (action: string) =>
    (await testApp.database.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(auditLog.id)).map((r) => ({ adminId: r.adminId, targetType: r.targetType, targetId: r.targetId, detail: r.detail }));
  const ids: Record<string, number> = {};

  const post = (path: string, body: unknown, h: Record<string, string> = headers) =>
    app.inject({ method: "POST", url: `/api/pandaadmin/collect/${path}`, payload: body as object, headers: h });
  const table = (query: Record<string, string> = {}, h: Record<string, string> = headers) =>
    app.inject({ url: "/api/pandaadmin/collect/index", query, headers: h });
  const rowsOf = (res: Awaited<ReturnType<typeof table>>) => (res.json().rows as { id: number }[]).map((r) => r.id);

  beforeAll(async () => {
    ensureWebBuild();
    testApp = await createTestApp(engine, { web: true });
    app = testApp.app;
    const db = testApp.database.db;
    const [admin] = await db.insert(admins).values({ username: "collect-boss", passwordHash: "x", status: 1 }).returning();
    adminId = admin!.id;
    headers = { authorization: `Bearer ${await sessionService(db).createAdminSession(admin!.id)}` };
    await app.services.writes.createCategories([{ name: "DJ串烧", diyname: "chuanshao", modelId: 2 }, { name: "DJ单曲", diyname: "danqu" }]);
    ids.a = await insertCollected(db, { source: "djuu", sourceId: "301", title: "夜曲(DJ阿福 Rmx)", artist: "周杰伦", kind: "single", durationSec: 250, sizeBytes: 3_000_000, chartPositions: { "week:single": 2 } });
    ids.b = await insertCollected(db, { source: "172minx", sourceId: "abc302", title: "南宁DJ小鱼-全中文串烧", kind: "mix", durationSec: 3600 });
    ids.c = await insertCollected(db, { source: "vvvdj", sourceId: "303", title: "清风夜曲串烧", sourceCategoryName: "慢摇串烧" });
    ids.d = await insertCollected(db, { source: "djuu", sourceId: "304", title: "江南(Remix)", artist: "林俊杰" });
    // Known times for the time filters: 2026-11-01 12:00 in China is 04:00 UTC.
    await db.update(collectedItems).set({ createdAt: new Date("2026-11-01T04:00:00Z") }).where(eq(collectedItems.id, ids.d));
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it("refuses guests (401) and bad bodies (400 with a Chinese message)", async () => {
    for (const path of ["process", "delete"]) {
      expect((await post(path, { ids: [ids.a] }, {})).statusCode).toBe(401);
      for (const [body, msg] of [
        [{ ids: [] }, "请选择要处理的采集数据"],
        [{ ids: Array.from({ length: 101 }, (_, i) => i + 1) }, "一次最多处理 100 条"],
        [{ ids: ["x"] }, "请选择要处理的采集数据"],
        [{ ids: [0] }, "请选择要处理的采集数据"],
        [{}, "请选择要处理的采集数据"],
      ] as const) {
        const res = await post(path, body);
        expect(res.statusCode, `${path} ${JSON.stringify(body)}`).toBe(400);
        expect(res.json()).toMatchObject({ code: 0, msg });
      }
    }
    expect((await table({}, {})).statusCode).toBe(401);
    expect((await collectedCount())).toBe(4);
    expect(await auditRows("collected.process")).toEqual([]);
    expect(await auditRows("collected.delete")).toEqual([]);
  });

  const collectedCount = async () => (await testApp.database.db.select({ n: sql<number>`count(*)::int` }).from(collectedItems))[0]!.n;

  it("lists the table: {total, rows}, newest first, paged, searched, filtered by status", async () => {
    const all = await table();
    expect(all.statusCode).toBe(200);
    // The bare table answer (ADMIN-API.md), no envelope.
    expect(Object.keys(all.json()).sort()).toEqual(["rows", "total"]);
    expect(all.json().total).toBe(4);
    expect(rowsOf(all)).toEqual([ids.d, ids.c, ids.b, ids.a]);
    expect(all.json().rows.at(-1)).toEqual({
      id: ids.a,
      title: "夜曲(DJ阿福 Rmx)",
      source: "djuu",
      createtime: expect.any(Number),
      status: "0",
      status_text: "未处理",
      source_url: "https://www.djuu.com/play/301.html",
      source_id: "301",
      artist: "周杰伦",
      cover: null,
      kind: "single",
      playtype: "mp3",
      source_category: null,
      source_category_name: null,
      duration: 250,
      size: 3_000_000,
      chart_positions: { "week:single": 2 },
      item_id: null,
      processtime: null,
      last_seen: expect.any(Number),
    });
    expect(rowsOf(await table({ sort: "id", order: "asc", offset: "1", limit: "2" }))).toEqual([ids.b, ids.c]);
    expect(rowsOf(await table({ page: "2", limit: "3" }))).toEqual([ids.a]);
    const searched = await table({ search: "夜曲" });
    expect(searched.json()).toMatchObject({ total: 2 });
    expect(rowsOf(searched)).toEqual([ids.c, ids.a]);
    expect(rowsOf(await table({ search: String(ids.b) }))).toEqual([ids.b]);
    expect(rowsOf(await table({ status: "1" }))).toEqual([]);
    expect(rowsOf(await table({ status: "all", sort: "duration", order: "desc" }))).toEqual([ids.b, ids.a, ids.d, ids.c]);
  });

  it("reads filter and op as the back office sends them, and refuses what it cannot read", async () => {
    const f = (filter: object, op: object = {}) => table({ filter: JSON.stringify(filter), op: JSON.stringify(op), sort: "id", order: "asc" });
    expect(rowsOf(await f({ source: "djuu" }))).toEqual([ids.a, ids.d]);
    expect(rowsOf(await f({ source: "djuu,vvvdj" }, { source: "in" }))).toEqual([ids.a, ids.c, ids.d]);
    expect(rowsOf(await f({ source: "djuu" }, { source: "<>" }))).toEqual([ids.b, ids.c]);
    expect(rowsOf(await f({ title: "串烧" }, { title: "LIKE" }))).toEqual([ids.b, ids.c]);
    expect(rowsOf(await f({ duration: "251," }, { duration: "BETWEEN" }))).toEqual([ids.b]);
    expect(rowsOf(await f({ duration: "251,4000" }, { duration: "NOT BETWEEN" }))).toEqual([ids.a]);
    expect(rowsOf(await f({ source: "djuu" }, { source: "FIND_IN_SET" }))).toEqual([ids.a, ids.d]);
    expect(rowsOf(await f({ id: `${ids.a},${ids.c}` }, { id: "NOT IN" }))).toEqual([ids.b, ids.d]);
    expect(rowsOf(await f({ artist: "NULL" }))).toEqual([ids.b, ids.c]);
    expect(rowsOf(await f({ kind: "" }, { kind: "NOT NULL" }))).toEqual([ids.a, ids.b]);
    expect(rowsOf(await f({ createtime: "2026-11-01 00:00:00 - 2026-11-01 23:59:59" }, { createtime: "RANGE" }))).toEqual([ids.d]);
    expect(rowsOf(await f({ createtime: "2026-11-01 12:00:01" }, { createtime: "<" }))).toEqual([ids.d]);
    expect(rowsOf(await f({ source: "" }))).toHaveLength(4);

    for (const [query, msg] of [
      [{ filter: '{"nosuch":"1"}' }, "筛选条件无效"],
      [{ filter: '{"bad key":"1"}' }, "筛选条件无效"],
      [{ filter: "{not json" }, "筛选条件无效"],
      [{ filter: '["source"]' }, "筛选条件无效"],
      [{ filter: '{"duration":"long"}' }, "筛选条件无效"],
      [{ filter: '{"source":"djuu"}', op: '{"source":"REGEXP"}' }, "筛选运算符无效"],
      [{ sort: "password" }, "排序字段无效"],
      [{ order: "sideways" }, "排序方向只能是 asc 或 desc"],
      [{ limit: "-1" }, "分页参数无效"],
      [{ status: "2" }, "状态只能是 0 或 1"],
    ] as const) {
      const res = await table(query);
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json(), JSON.stringify(query)).toMatchObject({ code: 0, msg });
    }
  });

  it("processes a batch (unknown ids reported), then its item's page answers; delete keeps the items", async () => {
    const res = await post("process", { ids: [ids.a, ids.b, 987_654] });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ processed: 2, failed: 1 });
    expect(data.results).toEqual([
      { id: ids.a, itemId: expect.any(Number), action: "created", error: null },
      { id: ids.b, itemId: expect.any(Number), action: "created", error: null },
      { id: 987_654, itemId: null, action: null, error: "采集数据不存在" },
    ]);
    // One audit row per processed row, none for the unknown id.
    expect(await auditRows("collected.process")).toEqual([
      { adminId, targetType: "collected", targetId: String(ids.a), detail: expect.objectContaining({ before: { status: 0, itemId: null }, after: { status: 1, itemId: data.results[0].itemId }, itemAction: "created" }) },
      { adminId, targetType: "collected", targetId: String(ids.b), detail: expect.objectContaining({ after: { status: 1, itemId: data.results[1].itemId } }) },
    ]);
    const again = (await post("process", { ids: [ids.a] })).json().data.results[0];
    expect(again).toMatchObject({ itemId: data.results[0].itemId, action: "updated" });

    const processed = await table({ status: "1", sort: "id", order: "asc" });
    expect(processed.json().rows).toMatchObject([
      { id: ids.a, status: "1", status_text: "已处理", item_id: data.results[0].itemId, processtime: expect.any(Number) },
      { id: ids.b, status: "1", item_id: data.results[1].itemId },
    ]);

    const page = await app.inject({ url: `/sutie/${data.results[0].itemId}.html` });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/u);
    expect(page.body).toContain("夜曲(DJ阿福 Rmx)");

    const deleted = await post("delete", { ids: [ids.a, ids.c, 987_654] });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().data).toEqual({ deleted: [ids.a, ids.c].sort((x, y) => x - y) });
    expect(await collectedCount()).toBe(2);
    // Nothing left to delete (issue 25: this answered 删除成功): 404 with the contract's message, nothing audited.
    const audited = (await auditRows("collected.delete")).length;
    for (const body of [{ ids: [ids.a] }, { ids: [987_654, 987_655] }]) {
      const again = await post("delete", body);
      expect(again.statusCode, JSON.stringify(body)).toBe(404);
      expect(again.json()).toMatchObject({ code: 0, msg: "采集数据不存在" });
    }
    expect(await auditRows("collected.delete")).toHaveLength(audited);
    expect((await auditRows("collected.delete")).map((r) => [r.targetId, (r.detail as { before: { title: string } }).before.title, (r.detail as { after: unknown }).after])).toEqual([
      [String(ids.a), "夜曲(DJ阿福 Rmx)", null],
      [String(ids.c), "清风夜曲串烧", null],
    ]);
    const left = await testApp.database.db.select({ id: items.id }).from(items).where(eq(items.id, data.results[0].itemId));
    expect(left).toHaveLength(1);
    expect((await app.inject({ url: `/sutie/${data.results[0].itemId}.html` })).statusCode).toBe(200);
  });

  it("documents the calls as admin calls", async () => {
    const doc = (await app.inject({ url: "/api/docs/json" })).json();
    for (const [path, method] of [["/api/pandaadmin/collect/process", "post"], ["/api/pandaadmin/collect/delete", "post"], ["/api/pandaadmin/collect/index", "get"]] as const) {
      expect(doc.paths[path][method].tags, path).toEqual(["admin"]);
      expect(doc.paths[path][method].summary, path).toMatch(/[\u4e00-\u9fff]/u);
    }
  });
});
