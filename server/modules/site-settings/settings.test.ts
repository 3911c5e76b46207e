/**
 * 站点设置 (issue 12, ADR 0030): only a 超级管理员 reads and saves them; bad input is refused with
 * nothing changed; a save is audited and the home answer's SEO texts change on the next request.
 */
import { desc, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appSettings, auditLog } from "../../db/schema/index.js";
import { createTestAdmin } from "../../testing/admins.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { createTestUser } from "../../testing/users.js";

describe.each(testEngines())("site settings on %s", (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let superHeaders: Record<string, string>;
  let editorHeaders: Record<string, string>;
  const url = "/api/pandaadmin/settings";
  const good = { title: "DJ舞曲网", keywords: "DJ,舞曲", description: "全网DJ舞曲搜索", footer: "第一行\n第二行", partnerText: "欢迎交换链接" };
  const home = async () => (await app.inject("/api/forntend/index")).json();
  const stored = async () => t.database.db.select().from(appSettings).where(eq(appSettings.key, "site"));

  beforeAll(async () => {
    t = await createTestApp(engine);
    app = t.app;
    superHeaders = (await createTestAdmin(t.database.db, { role: "super" })).headers;
    editorHeaders = (await createTestAdmin(t.database.db, { role: "editor" })).headers;
  });
  afterAll(() => t?.close());

  it("answers the defaults before any save", async () => {
    const res = await app.inject({ url, headers: superHeaders });
    expect(res.json()).toMatchObject({ code: 1, data: { title: "DJ搜索引擎网", partnerText: "" } });
    expect(res.json().data.footer).toContain("不提供下载");
    expect((await home()).title).toBe("DJ搜索引擎网");
  });

  it("refuses guests and members (401) and editors (403 需要超级管理员权限)", async () => {
    const member = await createTestUser(app);
    for (const headers of [{}, member.headers]) {
      expect((await app.inject({ url, headers })).statusCode).toBe(401);
      expect((await app.inject({ method: "PUT", url, headers, payload: good })).statusCode).toBe(401);
    }
    const refused = await app.inject({ method: "PUT", url, headers: editorHeaders, payload: good });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 0, msg: "需要超级管理员权限" });
    expect(await stored()).toEqual([]);
  });

  it("answers bad input with 400 and a Chinese message, changing nothing", async () => {
    for (const [body, msg] of [
      [{ ...good, title: "" }, "请输入站点标题"],
      [{ ...good, title: "   " }, "请输入站点标题"],
      [{ ...good, title: "标".repeat(61) }, "站点标题最多 60 个字"],
      [{ ...good, keywords: "k".repeat(201) }, "关键词最多 200 个字"],
      [{ ...good, description: "d".repeat(501) }, "站点描述最多 500 个字"],
      [{ ...good, footer: "f".repeat(1001) }, "页脚内容最多 1000 个字"],
      [{ ...good, partnerText: "p".repeat(501) }, "合作说明最多 500 个字"],
    ] as const) {
      const res = await app.inject({ method: "PUT", url, headers: superHeaders, payload: body });
      expect(res.statusCode, msg).toBe(400);
      expect(res.json()).toMatchObject({ code: 0, msg });
    }
    expect(await stored()).toEqual([]);
    expect(await t.database.db.select().from(auditLog).where(eq(auditLog.action, "settings.update"))).toEqual([]);
  });

  it("saves: the home answer's title, keywords and description change at once, with an audit row", async () => {
    await home(); // kept now
    const res = await app.inject({ method: "PUT", url, headers: superHeaders, payload: { ...good, title: "  DJ舞曲网  " } });
    expect(res.json()).toMatchObject({ code: 1, msg: "保存成功", data: good });
    expect(await home()).toMatchObject({ title: "DJ舞曲网", keywords: "DJ,舞曲", description: "全网DJ舞曲搜索" });
    expect((await app.inject({ url, headers: superHeaders })).json().data).toEqual(good);
    const [row] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, "settings.update")).orderBy(desc(auditLog.id));
    expect(row).toMatchObject({ targetType: "settings", targetId: "site" });
    expect(row!.detail).toMatchObject({ before: { title: "DJ搜索引擎网" }, after: good });

    // A category without SEO texts of its own shows the site's; its kept page drops them too.
    await app.services.writes.createCategories([{ name: "DJ串烧", diyname: "chuanshao" }]);
    expect((await app.inject("/api/forntend/getsort?diyname=chuanshao")).json().data).toMatchObject({ title: "DJ串烧 - DJ舞曲网", keywords: "DJ,舞曲" });
    await app.inject({ method: "PUT", url, headers: superHeaders, payload: { ...good, title: "第二个标题" } });
    expect((await app.inject("/api/forntend/getsort?diyname=chuanshao")).json().data.title).toBe("DJ串烧 - 第二个标题");
    expect((await home()).title).toBe("第二个标题");
    const [second] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, "settings.update")).orderBy(desc(auditLog.id));
    expect(second!.detail).toMatchObject({ before: { title: "DJ舞曲网" }, after: { title: "第二个标题" } });
  });
});
