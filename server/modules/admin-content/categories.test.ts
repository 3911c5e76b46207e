/**
 * The back office's categories (issue 12): the table, create / edit / delete with their 400s
 * (nothing changed), the refusal while suites or sub-categories remain, the audit rows, and the
 * public navigation and /sort pages changing on the next request; on both engines.
 */
import { desc, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, categories } from "../../db/schema/index.js";
import { queryRows } from "../../db/sql.js";
import { createTestAdmin } from "../../testing/admins.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { createTestUser } from "../../testing/users.js";

describe.each(testEngines())("admin categories on %s", (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let editor: Record<string, string>;
  let adminId: number;
  const ids: Record<string, number> = {};

  const call = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object, headers = editor) =>
    app.inject({ method, url, payload, headers });
  const snapshot = async () => t.database.db.select().from(categories).orderBy(categories.id);
  const auditRows = async (action: string) =>
    t.database.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(desc(auditLog.id));
  const topNav = async () => (await app.inject("/api/forntend/gettopnav")).json().data as { label: string; to: string; items?: { label: string }[] }[];

  beforeAll(async () => {
    t = await createTestApp(engine);
    app = t.app;
    const admin = await createTestAdmin(t.database.db, { role: "editor" });
    editor = admin.headers;
    adminId = admin.id;
    const created = await app.services.writes.createCategories([
      { name: "DJ串烧", diyname: "chuanshao", modelId: 2, sort: 1 },
      { name: "DJ单曲", diyname: "danqu", sort: 2 },
    ]);
    ids.chuanshao = created[0]!.id;
    ids.danqu = created[1]!.id;
    await app.services.writes.createItem({ kind: "mix", title: "夜店串烧", playUrl: "/media/a.mp3", sourceSite: "local", categoryId: ids.chuanshao });
  });
  afterAll(() => t?.close());

  it("refuses guests and site members (401)", async () => {
    const member = await createTestUser(app);
    for (const headers of [{}, member.headers]) {
      expect((await call("GET", "/api/pandaadmin/category/index", undefined, headers)).statusCode).toBe(401);
      expect((await call("POST", "/api/pandaadmin/category", { name: "x", diyname: "x" }, headers)).statusCode).toBe(401);
    }
  });

  it("lists {total, rows} in menu order with suite counts, parent and SEO fields", async () => {
    const res = await call("GET", "/api/pandaadmin/category/index");
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(2);
    expect(body.rows[0]).toEqual({
      id: ids.chuanshao,
      name: "DJ串烧",
      diyname: "chuanshao",
      sort: 1,
      count: 1,
      parent_id: null,
      parent_name: null,
      enabled: true,
      model_id: 2,
      seo_title: "",
      seo_keywords: "",
      seo_description: "",
      url: "/sort/chuanshao",
    });
    const searched = (await call("GET", "/api/pandaadmin/category/index?search=单曲")).json();
    expect(searched.rows.map((r: { id: number }) => r.id)).toEqual([ids.danqu]);
    const sorted = (await call("GET", "/api/pandaadmin/category/index?sort=count&order=desc")).json();
    expect(sorted.rows[0].id).toBe(ids.chuanshao);
    expect((await call("GET", "/api/pandaadmin/category/index?sort=nope")).json()).toMatchObject({ code: 0, msg: "排序字段无效" });
  });

  it("creates a sub-category: it shows in the navigation at once, with an audit row", async () => {
    await topNav(); // the navigation is kept now
    const res = await call("POST", "/api/pandaadmin/category", {
      name: "慢摇串烧",
      diyname: "manyao",
      sort: 3,
      parent_id: ids.chuanshao,
      seo_title: "慢摇串烧_DJ慢摇",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 1, msg: "添加成功", data: { name: "慢摇串烧", parent_id: ids.chuanshao, parent_name: "DJ串烧", model_id: 1, enabled: true } });
    ids.manyao = res.json().data.id;
    const nav = await topNav();
    expect(nav.find((n) => n.to === "/sort/chuanshao")?.items?.map((i) => i.label)).toEqual(["慢摇串烧"]);
    const [row] = await auditRows("category.create");
    expect(row).toMatchObject({ adminId, targetType: "category", targetId: String(ids.manyao) });
    expect(row!.detail).toMatchObject({ before: null, after: { name: "慢摇串烧", diyname: "manyao" } });
  });

  it("answers bad input with 400 and a Chinese message, changing nothing", async () => {
    const before = await snapshot();
    const cases: [string, "POST" | "PUT", object, string][] = [
      ["/api/pandaadmin/category", "POST", { name: "", diyname: "a" }, "请输入分类名称"],
      ["/api/pandaadmin/category", "POST", { diyname: "a" }, "请输入分类名称"],
      ["/api/pandaadmin/category", "POST", { name: "甲", diyname: "" }, "请输入分类别名"],
      ["/api/pandaadmin/category", "POST", { name: "甲", diyname: "a b/c" }, "分类别名只能包含字母、数字、下划线和短横线，以字母或数字开头，最多 50 个字符"],
      ["/api/pandaadmin/category", "POST", { name: "甲", diyname: "x.html" }, "分类别名只能包含字母、数字、下划线和短横线，以字母或数字开头，最多 50 个字符"],
      ["/api/pandaadmin/category", "POST", { name: "甲", diyname: "CHUANSHAO" }, "分类别名已被使用"],
      ["/api/pandaadmin/category", "POST", { name: "甲", diyname: "jia", sort: -1 }, "排序必须是不小于 0 的整数"],
      ["/api/pandaadmin/category", "POST", { name: "甲", diyname: "jia", sort: 1.5 }, "排序必须是不小于 0 的整数"],
      ["/api/pandaadmin/category", "POST", { name: "甲", diyname: "jia", parent_id: 999999 }, "上级分类不存在"],
      ["/api/pandaadmin/category", "POST", { name: "甲", diyname: "jia", model_id: 3 }, "页面样式只能是 1（推荐样式）或 2（最新样式）"],
      [`/api/pandaadmin/category/${ids.chuanshao}`, "PUT", { parent_id: ids.manyao }, "不能选择自身或其下级分类作为上级分类"],
      [`/api/pandaadmin/category/${ids.chuanshao}`, "PUT", { parent_id: ids.chuanshao }, "不能选择自身或其下级分类作为上级分类"],
      [`/api/pandaadmin/category/${ids.danqu}`, "PUT", { diyname: "manyao" }, "分类别名已被使用"],
      [`/api/pandaadmin/category/${ids.danqu}`, "PUT", { name: "  " }, "请输入分类名称"],
      [`/api/pandaadmin/category/${ids.danqu}`, "PUT", { sort: -1 }, "排序必须是不小于 0 的整数"],
      [`/api/pandaadmin/category/${ids.danqu}`, "PUT", { sort: "-5" }, "排序必须是不小于 0 的整数"],
    ];
    for (const [url, method, body, msg] of cases) {
      const res = await call(method, url, body);
      expect(res.statusCode, `${method} ${JSON.stringify(body)}`).toBe(400);
      expect(res.json(), JSON.stringify(body)).toMatchObject({ code: 0, msg });
    }
    expect((await call("PUT", "/api/pandaadmin/category/999999", { name: "甲" })).json()).toMatchObject({ code: 0, msg: "分类不存在" });
    expect(await snapshot()).toEqual(before);
    expect(await auditRows("category.update")).toEqual([]);
  });

  it("renames a category: the navigation and its /sort page change on the next request", async () => {
    await topNav();
    expect((await app.inject("/api/forntend/getsort?diyname=danqu")).json().data.categoryname).toBe("DJ单曲");
    const res = await call("PUT", `/api/pandaadmin/category/${ids.danqu}`, { name: "DJ舞曲单曲", seo_title: "单曲SEO", model_id: 2, sort: 0 });
    expect(res.json()).toMatchObject({ code: 1, msg: "保存成功", data: { name: "DJ舞曲单曲", seo_title: "单曲SEO", model_id: 2, sort: 0, diyname: "danqu" } });
    const nav = await topNav();
    expect(nav.map((n) => n.label)).toEqual(["首页", "DJ舞曲单曲", "DJ串烧"]);
    const page = (await app.inject("/api/forntend/getsort?diyname=danqu")).json().data;
    expect(page).toMatchObject({ categoryname: "DJ舞曲单曲", title: "单曲SEO - DJ搜索引擎网", model_id: 2 });
    const [row] = await auditRows("category.update");
    expect(row!.detail).toMatchObject({ before: { name: "DJ单曲", sort: 2 }, after: { name: "DJ舞曲单曲", sort: 0 } });
  });

  it("hides a disabled category from the navigation", async () => {
    await call("PUT", `/api/pandaadmin/category/${ids.danqu}`, { enabled: false });
    expect((await topNav()).map((n) => n.label)).toEqual(["首页", "DJ串烧"]);
    await call("PUT", `/api/pandaadmin/category/${ids.danqu}`, { enabled: true });
    expect((await topNav()).map((n) => n.label)).toContain("DJ舞曲单曲");
  });

  it("drag-to-sort: a category takes another's place, the navigation follows on the next request, audited; bad moves change nothing", async () => {
    const labels = async () => (await topNav()).map((n) => n.label);
    expect(await labels()).toEqual(["首页", "DJ舞曲单曲", "DJ串烧"]);
    const moved = await call("POST", "/api/pandaadmin/category/sort", { id: ids.chuanshao, to: ids.danqu });
    expect(moved.json()).toMatchObject({ code: 1, msg: "排序已保存" });
    expect(await labels()).toEqual(["首页", "DJ串烧", "DJ舞曲单曲"]);
    const [row] = await auditRows("category.sort");
    expect(row).toMatchObject({ adminId, targetId: String(ids.chuanshao), detail: { to: ids.danqu, after: { sort: { [ids.chuanshao!]: 0, [ids.danqu!]: 10 } } } });

    const before = await snapshot();
    for (const [payload, status] of [
      [{ id: ids.chuanshao, to: 99_999_999 }, 404],
      [{ id: 99_999_999, to: ids.danqu }, 404],
      [{ id: "x", to: ids.danqu }, 400],
      [{ id: ids.chuanshao }, 400],
    ] as const) {
      const res = await call("POST", "/api/pandaadmin/category/sort", payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().code).toBe(0);
    }
    expect(await snapshot()).toEqual(before);
    // Back as it was, for the tests after this one.
    await call("POST", "/api/pandaadmin/category/sort", { id: ids.danqu, to: ids.chuanshao });
    expect(await labels()).toEqual(["首页", "DJ舞曲单曲", "DJ串烧"]);
  });

  it("refuses to delete a category that still has suites or sub-categories", async () => {
    const withSuite = await call("DELETE", `/api/pandaadmin/category/${ids.chuanshao}`);
    expect(withSuite.statusCode).toBe(400);
    expect(withSuite.json()).toMatchObject({ code: 0, msg: "该分类下还有 1 首套曲，请先移走或删除这些套曲再删除分类" });
    const [item] = await queryRows<{ id: number }>(t.database.db, sql`select id from items`);
    const itemId = item!.id;
    await app.services.writes.updateItem(itemId, { categoryId: ids.danqu });
    const withChild = await call("DELETE", `/api/pandaadmin/category/${ids.chuanshao}`);
    expect(withChild.json()).toMatchObject({ code: 0, msg: "该分类下还有 1 个子分类，请先移走或删除子分类再删除分类" });
    expect((await snapshot()).length).toBe(3);
    expect(await auditRows("category.delete")).toEqual([]);
  });

  it("deletes an empty category: gone from the navigation and the options, audited with its record", async () => {
    await topNav();
    const res = await call("DELETE", `/api/pandaadmin/category/${ids.manyao}`);
    expect(res.json()).toMatchObject({ code: 1, msg: "删除成功" });
    expect((await topNav()).find((n) => n.to === "/sort/chuanshao")?.items).toBeUndefined();
    const options = (await call("GET", "/api/pandaadmin/category/options")).json().data as { id: number }[];
    expect(options.map((o) => o.id)).not.toContain(ids.manyao);
    expect((await app.inject("/api/forntend/getsort?diyname=manyao")).statusCode).toBe(404);
    const [row] = await auditRows("category.delete");
    expect(row!.detail).toMatchObject({ before: { name: "慢摇串烧", diyname: "manyao" }, after: null });
    expect((await call("DELETE", `/api/pandaadmin/category/${ids.manyao}`)).statusCode).toBe(404);
  });
});
