import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog } from "../../db/schema/index.js";
import { createTestAdmin } from "../../testing/admins.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";

describe.each(testEngines())("GET /api/pandaadmin/audit/index on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let boss: Awaited<ReturnType<typeof createTestAdmin>>;
  let editor: Awaited<ReturnType<typeof createTestAdmin>>;

  beforeAll(async () => {
    testApp = await createTestApp(engine);
    app = testApp.app;
    const db = testApp.database.db;
    boss = await createTestAdmin(db, { role: "super", username: "audit-boss" });
    editor = await createTestAdmin(db, { role: "editor", username: "audit-editor" });
    // Three entries at known times (Beijing 2026-03-01 10:00, 2026-03-02 10:00, 2026-03-03 10:00).
    await db.insert(auditLog).values([
      { adminId: editor.id, action: "suite.update", targetType: "suite", targetId: "7", ip: "1.2.3.4", detail: { before: { title: "旧" }, after: { title: "新" } }, createdAt: new Date("2026-03-01T02:00:00Z") },
      { adminId: boss.id, action: "category.delete", targetType: "category", targetId: "3", ip: "1.2.3.5", detail: { before: { name: "慢摇" }, after: null, ids: [3] }, createdAt: new Date("2026-03-02T02:00:00Z") },
      { adminId: editor.id, action: "suite.create", targetType: "suite", targetId: "8", ip: "1.2.3.4", detail: { before: null, after: { title: "新歌" } }, createdAt: new Date("2026-03-03T02:00:00Z") },
    ]);
  });
  afterAll(() => testApp?.close());

  const get = (query: Record<string, string>, headers: Record<string, string> = boss.headers) =>
    app.inject({ url: `/api/pandaadmin/audit/index?${new URLSearchParams(query)}`, headers });
  const filtered = (filter: object, op: object = {}) => get({ filter: JSON.stringify(filter), op: JSON.stringify(op) });

  it("answers the bare {total, rows}, newest first, with who, what, where, when, before and after", async () => {
    const res = await get({});
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(3);
    expect(body.rows.map((r: { action: string }) => r.action)).toEqual(["suite.create", "category.delete", "suite.update"]);
    expect(body.rows[1]).toEqual({
      id: expect.any(Number),
      admin_id: boss.id,
      admin_username: "audit-boss",
      admin_nickname: "",
      action: "category.delete",
      target_type: "category",
      target_id: "3",
      ip: "1.2.3.5",
      createtime: Date.parse("2026-03-02T02:00:00Z") / 1000,
      before: { name: "慢摇" },
      after: null,
      detail: { ids: [3] },
    });
  });

  it("filters by admin, action, target type and time range; the keyword matches the admin's name", async () => {
    expect((await filtered({ admin_id: String(editor.id) })).json().total).toBe(2);
    expect((await filtered({ action: "suite." }, { action: "LIKE" })).json().total).toBe(2);
    expect((await filtered({ target_type: "category" })).json().rows[0].action).toBe("category.delete");
    const range = await filtered({ createtime: "2026-03-01 12:00:00 - 2026-03-03 09:00:00" }, { createtime: "RANGE" });
    expect(range.json().rows.map((r: { action: string }) => r.action)).toEqual(["category.delete"]);
    expect((await get({ search: "audit-boss" })).json().total).toBe(1);
    const oldest = await get({ sort: "createtime", order: "asc", limit: "1" });
    expect(oldest.json()).toMatchObject({ total: 3, rows: [{ action: "suite.update" }] });
  });

  it("answers 400 with a Chinese message for unknown keys, ops, values and paging", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ filter: JSON.stringify({ detail: "x" }) }, "筛选条件无效"],
      [{ filter: JSON.stringify({ admin_id: "1" }), op: JSON.stringify({ admin_id: "REGEXP" }) }, "筛选运算符无效"],
      [{ filter: JSON.stringify({ createtime: "yesterday - today" }), op: JSON.stringify({ createtime: "RANGE" }) }, "筛选条件无效"],
      [{ filter: "{not json" }, "筛选条件无效"],
      [{ sort: "detail" }, "排序字段无效"],
      [{ limit: "-1" }, "分页参数无效"],
    ];
    for (const [query, msg] of cases) {
      const res = await get(query);
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json()).toMatchObject({ code: 0, msg });
    }
  });

  it("is for 超级管理员 only", async () => {
    const res = await get({}, editor.headers);
    expect(res.statusCode).toBe(403);
    expect(res.json().msg).toBe("需要超级管理员权限");
    expect((await get({}, {})).statusCode).toBe(401);
  });
});
