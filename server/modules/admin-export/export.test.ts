import type { FastifyInstance } from "fastify";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog } from "../../db/schema/index.js";
import { demoMediaFixture } from "../../db/seed/demo-media.fixture.js";
import { seedDemoCatalogue } from "../../db/seed/index.js";
import { everyRow } from "../../http/admin-table.js";
import { createTestAdmin } from "../../testing/admins.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { createTestUser } from "../../testing/users.js";

/** A CSV file as Excel reads it, back into rows of cells (quotes, commas and line breaks inside cells). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") row.push(cell), (cell = "");
    else if (ch === "\r" && text[i + 1] === "\n") row.push(cell), rows.push(row), (row = []), (cell = ""), i++;
    else cell += ch;
  }
  return rows;
}

describe.each(testEngines())("CSV exports of the back office's tables on %s", (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let boss: Awaited<ReturnType<typeof createTestAdmin>>;
  let editor: Awaited<ReturnType<typeof createTestAdmin>>;
  let tricky: number;

  beforeAll(async () => {
    t = await createTestApp(engine);
    app = t.app;
    const db = t.database.db;
    boss = await createTestAdmin(db, { role: "super", username: "export-boss" });
    editor = await createTestAdmin(db, { role: "editor", username: "export-editor" });
    await seedDemoCatalogue(t.database, { media: demoMediaFixture, suites: 40, singles: 5, plays: 0, writes: app.services.writes });
    // A title a spreadsheet would run, with a quote, a comma and a line break in it.
    const [first] = (await app.inject({ url: "/pandaadmin/cms/archives/index?limit=1", headers: boss.headers })).json().rows;
    tricky = first.id;
    await app.services.writes.updateItem(tricky, { title: '=HYPERLINK("http://x","点我"),\n第二行' });
    await createTestUser(app, { username: "csv_member" });
  }, 120_000);
  afterAll(() => t?.close());

  const get = (url: string, headers: Record<string, string> = boss.headers) => app.inject({ url, headers });
  const listAll = async (path: string, query: Record<string, string>) => {
    const ids: number[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = (await get(`${path}?${new URLSearchParams({ ...query, offset: String(offset), limit: "100" })}`)).json();
      ids.push(...page.rows.map((r: { id: number }) => r.id));
      if (page.rows.length < 100) return ids;
    }
  };

  it("answers the suites as UTF-8 CSV with a BOM, a Chinese header line, a download name, every match in the list's order", async () => {
    const query = { sort: "title", order: "asc", filter: JSON.stringify({ status: "normal" }) };
    const res = await get(`/api/pandaadmin/export/suites?${new URLSearchParams(query)}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toMatch(/^attachment; filename="suites-\d{4}-\d{2}-\d{2}\.csv"; filename\*=UTF-8''%E5%A5%97%E6%9B%B2-\d{4}-\d{2}-\d{2}\.csv$/u);
    expect([...res.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsv(res.rawPayload.subarray(3).toString("utf8"));
    expect(rows[0]).toEqual(["编号", "标题", "分类", "分类编号", "状态", "价格（币）", "播放次数", "评论数", "发布时间", "添加时间", "更新时间", "地址"]);
    const ids = rows.slice(1).map((r) => Number(r[0]));
    expect(ids).toEqual(await listAll("/pandaadmin/cms/archives/index", query));
    expect(ids).toHaveLength(40);
    // The formula is text with a leading ', its quote, comma and line break intact.
    const row = rows.find((r) => Number(r[0]) === tricky)!;
    expect(row[1]).toBe(`'=HYPERLINK("http://x","点我"),\n第二行`);
    expect(row[4]).toBe("正常");
    expect(row[11]).toBe(`/sutie/${tricky}.html`);
  });

  it("walks every match page by page after the last row, in every sort the list accepts (nulls last too)", async () => {
    // Ten suites without a category: pages end inside the nulls, which come last in either order.
    const some = (await get("/pandaadmin/cms/archives/index?limit=10&sort=id&order=asc")).json().rows as { id: number }[];
    for (const { id } of some) await app.services.writes.updateItem(id, { categoryId: null });
    const sorts: [string, "asc" | "desc"][] = [
      ["id", "desc"],
      ["title", "asc"],
      ["channel_id", "desc"],
      ["channel_id", "asc"],
      ["publishtime", "asc"],
      ["views", "desc"],
    ];
    for (const [sort, order] of sorts) {
      const query = { sort, order };
      const walked: number[] = [];
      for await (const row of everyRow(app.services.suiteList.source(query), 7)) walked.push(row.id);
      expect(walked, `${sort} ${order}`).toEqual(await listAll("/pandaadmin/cms/archives/index", query));
    }
  });

  it("takes the list's filters and keyword, and refuses what the list refuses, with its message and nothing recorded", async () => {
    const query = { search: "串烧" };
    const res = await get(`/api/pandaadmin/export/suites?${new URLSearchParams(query)}`);
    const ids = parseCsv(res.rawPayload.subarray(3).toString("utf8")).slice(1).map((r) => Number(r[0]));
    expect(ids.length).toBeGreaterThan(0);
    expect(ids).toEqual(await listAll("/pandaadmin/cms/archives/index", query));

    const before = (await t.database.db.select().from(auditLog).where(eq(auditLog.action, "suite.export"))).length;
    for (const [q, msg] of [
      [{ filter: JSON.stringify({ password: "x" }) }, "筛选条件无效"],
      [{ sort: "secret" }, "排序字段无效"],
      [{ filter: "{bad" }, "筛选条件无效"],
    ] as const) {
      const bad = await get(`/api/pandaadmin/export/suites?${new URLSearchParams(q)}`);
      expect(bad.statusCode, JSON.stringify(q)).toBe(400);
      expect(bad.json()).toMatchObject({ code: 0, msg });
    }
    expect((await t.database.db.select().from(auditLog).where(eq(auditLog.action, "suite.export"))).length).toBe(before);
  });

  it("exports users, collected data and the audit trail with their Chinese headers, each export an audit row", async () => {
    const users = await get(`/api/pandaadmin/export/users?${new URLSearchParams({ search: "csv_member" })}`);
    const userRows = parseCsv(users.rawPayload.subarray(3).toString("utf8"));
    expect(userRows[0]).toEqual(["编号", "用户名", "邮箱", "昵称", "金币", "VIP到期", "状态", "注册时间", "下载次数"]);
    expect(userRows.slice(1).map((r) => r[1])).toEqual(["csv_member"]);
    expect(users.headers["content-disposition"]).toContain("%E7%94%A8%E6%88%B7-"); // 用户

    const collected = await get("/api/pandaadmin/export/collected?status=0");
    expect(collected.statusCode).toBe(200);
    expect(parseCsv(collected.rawPayload.subarray(3).toString("utf8"))[0]![1]).toBe("标题");

    const audit = await get(`/api/pandaadmin/export/audit?${new URLSearchParams({ filter: JSON.stringify({ action: "user.export" }) })}`);
    const auditRows = parseCsv(audit.rawPayload.subarray(3).toString("utf8"));
    expect(auditRows[0]!.slice(0, 5)).toEqual(["编号", "时间", "管理员", "操作", "操作代码"]);
    expect(auditRows.slice(1).map((r) => [r[2], r[3], r[4]])).toEqual([["export-boss", "导出用户", "user.export"]]);
    expect(JSON.parse(auditRows[1]![10]!)).toEqual({ query: { search: "csv_member" } });

    const recorded = await t.database.db.select().from(auditLog).where(and(eq(auditLog.adminId, boss.id), eq(auditLog.action, "collected.export")));
    expect(recorded).toHaveLength(1);
    expect(recorded[0]!.detail).toMatchObject({ query: { status: "0" } });
  });

  it("has the access of viewing the table: suites and collected data for any admin, users and audit for 超级管理员", async () => {
    expect((await get("/api/pandaadmin/export/suites", editor.headers)).statusCode).toBe(200);
    expect((await get("/api/pandaadmin/export/collected", editor.headers)).statusCode).toBe(200);
    for (const table of ["users", "audit"]) {
      const res = await get(`/api/pandaadmin/export/${table}`, editor.headers);
      expect(res.statusCode).toBe(403);
      expect(res.json().msg).toBe("需要超级管理员权限");
    }
    expect((await get("/api/pandaadmin/export/suites", {})).statusCode).toBe(401);
  });
});
