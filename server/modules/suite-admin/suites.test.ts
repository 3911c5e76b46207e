/**
 * Adding and editing suites in the back office (issue 12, ADR 0029), on both engines: a suite
 * with everything, its edit, the audit rows, the public page showing the change at once, and
 * bad input refused with Chinese messages and nothing changed.
 */
import { count, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureWebBuild } from "../../../e2e/web-server.js";
import { auditLog, items } from "../../db/schema/index.js";
import { createTestAdmin } from "../../testing/admins.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { createTestUser } from "../../testing/users.js";

describe.each(testEngines())("suite add and edit on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let editor: { id: number; headers: Record<string, string> };
  let categoryId: number;
  let otherCategoryId: number;

  const full = () => ({
    title: "2026 全中文慢摇串烧 夜色",
    categoryId,
    artist: "DJ小鱼",
    cover: "/uploads/covers/abc.webp",
    playUrl: "/uploads/media/abc.mp3",
    playtype: "mp3",
    kind: "mix",
    durationSec: 3600,
    sizeBytes: 86_000_000,
    sourceSite: "local",
    vipdown: "0",
    price: 5,
    weburl: "https://pan.example.com/s/abc",
    webPassword: "x7k2",
    djlist: [
      { label: "01 开场", start: 0 },
      { label: "02 夜色", start: 245 },
      { label: "CD2", items: [{ label: "1 慢摇", start: 1800 }, { label: "2 收尾", start: 3300 }] },
    ],
    status: "normal",
    recommended: true,
  });
  const create = (body: unknown, headers = editor.headers) => app.inject({ method: "POST", url: "/api/pandaadmin/suites", payload: body as object, headers });
  const update = (id: number, body: unknown, headers = editor.headers) =>
    app.inject({ method: "PUT", url: `/api/pandaadmin/suites/${id}`, payload: body as object, headers });
  const db = () => testApp.database.db;
  const itemCount = async () => (await db().select({ n: count() }).from(items))[0].n;
  const auditCount = async () => (await db().select({ n: count() }).from(auditLog))[0].n;
  const auditOf = async (action: string, id: number) =>
    (await db().select().from(auditLog).where(eq(auditLog.targetId, String(id)))).filter((r) => r.action === action);

  beforeAll(async () => {
    ensureWebBuild();
    testApp = await createTestApp(engine, { web: true });
    app = testApp.app;
    editor = await createTestAdmin(db(), { role: "editor" });
    [{ id: categoryId }, { id: otherCategoryId }] = await app.services.writes.createCategories([
      { name: "DJ串烧", diyname: "chuanshao", modelId: 2 },
      { name: "慢摇舞曲", diyname: "manyao" },
    ]);
  });
  afterAll(() => testApp?.close());

  it("refuses guests and site members (401); an editor may use the form", async () => {
    const member = await createTestUser(app);
    for (const headers of [{}, member.headers]) {
      expect((await create(full(), headers)).statusCode).toBe(401);
      expect((await app.inject({ url: "/api/pandaadmin/suites/options", headers })).statusCode).toBe(401);
    }
    expect(await itemCount()).toBe(0);
    const options = (await app.inject({ url: "/api/pandaadmin/suites/options", headers: editor.headers })).json().data;
    expect(options.categories.map((c: { name: string }) => c.name)).toEqual(["DJ串烧", "慢摇舞曲"]);
    expect(options.sites.map((s: { code: string }) => s.code)).toContain("local");
  });

  it("creates a suite with everything; the public page and API show it at once; audited", async () => {
    const res = await create(full());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 1, msg: "添加成功" });
    const { id, url } = res.json().data as { id: number; url: string };
    expect(url).toBe(`/sutie/${id}.html`);

    const form = (await app.inject({ url: `/api/pandaadmin/suites/${id}`, headers: editor.headers })).json().data;
    expect(form).toEqual({ ...full(), id, url });

    const info = (await app.inject(`/api/forntend/getmusicinfo?id=${id}`)).json().data;
    expect(info).toMatchObject({
      title: full().title,
      artist: "DJ小鱼",
      image: "/uploads/covers/abc.webp",
      palyurl: "/uploads/media/abc.mp3",
      channel: { name: "DJ串烧", url: "/sort/chuanshao" },
      website: { code: "local" },
      vipdown: "0",
      price: 5,
      duration: 3600,
      audioFiles: 4,
    });
    const page = await app.inject(url);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(full().title);
    // Found by search (the derived search text).
    const search = (await app.inject(`/api/forntend/indexsearch?keyword=${encodeURIComponent("夜色")}`)).json();
    expect(JSON.stringify(search)).toContain(full().title);

    const [row] = await auditOf("suite.create", id);
    expect(row).toMatchObject({ adminId: editor.id, targetType: "suite" });
    expect(row.detail).toMatchObject({ before: null, after: { title: full().title, price: 5, djlist: full().djlist } });
  });

  it("edits it: the public page shows the change on the next request; audited with before and after", async () => {
    const { id } = (await create({ ...full(), title: "待修改的套曲" })).json().data as { id: number };
    // The page is kept (ADR 0012) once read…
    expect((await app.inject(`/sutie/${id}.html`)).body).toContain("待修改的套曲");
    const res = await update(id, { ...full(), title: "修改后的套曲", categoryId: otherCategoryId, status: "normal", vipdown: "1", price: 0, djlist: [] });
    expect(res.json()).toMatchObject({ code: 1, msg: "保存成功", data: { id } });
    // …and the change event drops it.
    const page = (await app.inject(`/sutie/${id}.html`)).body;
    expect(page).toContain("修改后的套曲");
    expect(page).not.toContain("待修改的套曲");
    expect((await app.inject(`/api/forntend/getmusicinfo?id=${id}`)).json().data).toMatchObject({
      title: "修改后的套曲",
      channel: { name: "慢摇舞曲" },
      vipdown: "1",
      audioFiles: 1,
    });
    const [row] = await auditOf("suite.update", id);
    expect(row.detail).toMatchObject({
      before: { title: "待修改的套曲", categoryId, vipdown: "0" },
      after: { title: "修改后的套曲", categoryId: otherCategoryId, vipdown: "1", djlist: [] },
    });
    // Hidden: the public page is gone at once.
    await update(id, { ...full(), status: "hidden" });
    expect((await app.inject(`/api/forntend/getmusicinfo?id=${id}`)).statusCode).toBe(404);
  });

  it("refuses bad input with 400 and a Chinese message, storing and auditing nothing", async () => {
    const { id } = (await create(full())).json().data as { id: number };
    const cases: [Record<string, unknown>, string][] = [
      [{ title: "  " }, "请输入套曲名称"],
      [{ title: undefined }, "请输入套曲名称"],
      [{ categoryId: undefined }, "请选择分类"],
      [{ categoryId: 0 }, "请选择分类"],
      [{ categoryId: 999_999 }, "分类不存在"],
      [{ sourceSite: "nowhere" }, "来源站点不存在"],
      [{ playUrl: "" }, "请上传媒体文件或填写播放地址"],
      [{ playUrl: "javascript:alert(1)" }, "地址应以 http://、https:// 或 / 开头"],
      [{ playUrl: "//evil.example/a.mp3" }, "地址应以 http://、https:// 或 / 开头"],
      [{ playtype: "flac" }, "请选择类型"],
      [{ price: -1 }, "价格应是 0 到 100000 的整数"],
      [{ price: 1.5 }, "价格应是 0 到 100000 的整数"],
      [{ vipdown: "2" }, "请选择下载方式"],
      [{ djlist: [{ label: "10 尾声", start: 0 }, { label: "2 开场", start: 60 }] }, "「2 开场」应排在「10 尾声」之前：前台按名称排序（数字按大小）"],
      [{ djlist: [{ label: "1 开场", start: 300 }, { label: "2 夜色", start: 120 }] }, "「2 夜色」的开始时间应晚于「1 开场」"],
      [{ djlist: [{ label: "1 开场", start: 3600 }] }, "「1 开场」的开始时间超过了媒体时长"],
      [{ djlist: [{ label: "CD1", items: [] }] }, "文件夹「CD1」是空的"],
      [{ djlist: [{ label: " ", start: 0 }] }, "曲目或文件夹名称不能为空"],
      [{ djlist: "nope" }, "文件列表格式无效"],
    ];
    const items0 = await itemCount();
    const audits0 = await auditCount();
    for (const [change, msg] of cases) {
      const body = { ...full(), ...change };
      const created = await create(body);
      expect([created.statusCode, created.json().msg], JSON.stringify(change)).toEqual([400, msg]);
      const updated = await update(id, { ...body, artist: "不该保存" });
      expect([updated.statusCode, updated.json().msg], JSON.stringify(change)).toEqual([400, msg]);
    }
    expect(await itemCount()).toBe(items0);
    expect(await auditCount()).toBe(audits0);
    expect((await app.inject({ url: `/api/pandaadmin/suites/${id}`, headers: editor.headers })).json().data).toMatchObject({ artist: "DJ小鱼" });
  });

  it("a tree stored before these rules is kept when it comes back unchanged; changed, it must follow them", async () => {
    // As the demo seed's "nested" shape: the folder 开场 (tracks 1-2) sorts after the track "3. …".
    const legacy = [
      { label: "上半场", icon: "folder", items: [{ label: "开场", icon: "folder", items: [{ label: "1. A", icon: "music", start: 0 }, { label: "2. B", icon: "music", start: 100 }] }, { label: "3. C", icon: "music", start: 200 }] },
    ];
    const [id] = await app.services.writes.createItems([{ kind: "mix", title: "旧套曲", playUrl: "/media/demo/x.mp3", sourceSite: "local", categoryId, djlist: legacy, durationSec: 600 }]);
    const form = (await app.inject({ url: `/api/pandaadmin/suites/${id}`, headers: editor.headers })).json().data;
    const { id: _id, url: _url, ...body } = form;
    const renamed = await update(id, { ...body, title: "旧套曲 (改名)" });
    expect(renamed.json()).toMatchObject({ code: 1, msg: "保存成功" });
    expect((await app.inject({ url: `/api/pandaadmin/suites/${id}`, headers: editor.headers })).json().data).toMatchObject({ title: "旧套曲 (改名)", djlist: legacy });
    const touched = structuredClone(legacy);
    touched[0].items[1].label = "3. D";
    const refused = await update(id, { ...body, djlist: touched });
    expect([refused.statusCode, refused.json().msg]).toEqual([400, "「3. D」应排在「开场」之前：前台按名称排序（数字按大小）"]);
    // A new suite must follow them from the start.
    expect((await create({ ...body, djlist: legacy })).statusCode).toBe(400);
  });

  it("an unknown or malformed id is 404 / 400 套曲不存在", async () => {
    expect((await app.inject({ url: "/api/pandaadmin/suites/999999", headers: editor.headers })).json()).toMatchObject({ code: 0, msg: "套曲不存在" });
    const put = await update(999_999, full());
    expect([put.statusCode, put.json().msg]).toEqual([404, "套曲不存在"]);
    expect((await app.inject({ url: "/api/pandaadmin/suites/abc", headers: editor.headers })).statusCode).toBe(400);
  });
});
