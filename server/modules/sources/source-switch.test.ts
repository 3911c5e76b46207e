/**
 * 来源管理's 批量启用/停用 (ADR 0078): `POST /api/pandaadmin/sources/switch {codes, enabled}` changes
 * every source named or none, writes an audit row for each that changes (none for one already
 * as asked), answers the sources as they are now, and refuses bad bodies with a Chinese 400,
 * an unknown source with 404 (nothing changed) and an editor with 403.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, sourceSites } from "../../db/schema/index.js";
import { createTestAdmin } from "../../testing/admins.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";

describe.each(testEngines())("batch switch of sources on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let boss: Awaited<ReturnType<typeof createTestAdmin>>;
  let editor: Awaited<ReturnType<typeof createTestAdmin>>;
  const CODES = ["djuu", "172minx", "vvvdj"];

  const batch = (payload: unknown, headers: Record<string, string> = boss.headers) =>
    app.inject({ method: "POST", url: "/api/pandaadmin/sources/switch", headers, payload: payload as object });
  const switches = async () =>
    Object.fromEntries(
      (await testApp.database.db.select({ code: sourceSites.code, enabled: sourceSites.enabled }).from(sourceSites).where(inArray(sourceSites.code, CODES))).map((r) => [r.code, r.enabled]),
    );
  const audits = async () =>
    (await testApp.database.db.select().from(auditLog).where(and(eq(auditLog.targetType, "source"), eq(auditLog.action, "source.update"))).orderBy(asc(auditLog.id))).map((r) => [
      r.adminId,
      r.targetId,
      (r.detail as { after: { enabled: boolean } }).after.enabled,
    ]);

  beforeAll(async () => {
    testApp = await createTestApp(engine);
    app = testApp.app;
    boss = await createTestAdmin(testApp.database.db, { role: "super" });
    editor = await createTestAdmin(testApp.database.db, { role: "editor" });
    // A known start: all three off, with no audit row.
    await testApp.database.db.update(sourceSites).set({ enabled: false }).where(inArray(sourceSites.code, CODES)); // behind the write service's back
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it("switches every source named, audits each change, and skips one already as asked", async () => {
    await testApp.database.db.update(sourceSites).set({ enabled: true }).where(eq(sourceSites.code, "vvvdj")); // behind the write service's back
    const res = await batch({ codes: ["djuu", "vvvdj", "djuu"], enabled: true });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.msg).toBe("已启用 2 个来源");
    expect(body.data.sources.map((s: { code: string; enabled: boolean }) => [s.code, s.enabled])).toEqual([
      ["djuu", true],
      ["vvvdj", true],
    ]);
    expect(await switches()).toEqual({ djuu: true, "172minx": false, vvvdj: true });
    // vvvdj was on already: one audit row, djuu's.
    expect(await audits()).toEqual([[boss.id, "djuu", true]]);

    const off = await batch({ codes: CODES, enabled: false });
    expect(off.json().msg).toBe("已停用 3 个来源");
    expect(await switches()).toEqual({ djuu: false, "172minx": false, vvvdj: false });
    expect((await audits()).slice(1)).toEqual([
      [boss.id, "djuu", false],
      [boss.id, "vvvdj", false],
    ]);
  });

  it("an unknown source among them: 404 部分来源不存在, nothing changed, nothing audited", async () => {
    const before = await audits();
    const res = await batch({ codes: ["djuu", "nosuchsite"], enabled: true });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 0, msg: "部分来源不存在" });
    expect(await switches()).toEqual({ djuu: false, "172minx": false, vvvdj: false });
    expect(await audits()).toEqual(before);
    expect((await batch({ codes: ["nosuchsite"], enabled: true })).json().msg).toBe("来源不存在");
  });

  it("refuses bad bodies with a Chinese 400 and changes nothing", async () => {
    const cases: [unknown, string][] = [
      [{ codes: [], enabled: true }, "请选择要操作的来源"],
      [{ enabled: true }, "请选择要操作的来源"],
      [{ codes: "djuu", enabled: true }, "请选择要操作的来源"],
      [{ codes: Array.from({ length: 51 }, (_, i) => `s${i}`), enabled: true }, "一次最多操作 50 个来源"],
      [{ codes: ["DJUU!"], enabled: true }, "来源代码无效"],
      [{ codes: ["djuu"] }, "enabled 须为 true 或 false"],
      [{ codes: ["djuu"], enabled: "yes" }, "enabled 须为 true 或 false"],
    ];
    for (const [payload, msg] of cases) {
      const res = await batch(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().msg, JSON.stringify(payload)).toContain(msg);
    }
    expect((await batch({ codes: ["djuu"], enabled: true, name: "x" })).statusCode).toBe(400);
    expect(await switches()).toEqual({ djuu: false, "172minx": false, vvvdj: false });
  });

  it("is the 超级管理员's: an editor gets 403, a guest 401", async () => {
    const res = await batch({ codes: ["djuu"], enabled: true }, editor.headers);
    expect(res.statusCode).toBe(403);
    expect(res.json().msg).toBe("需要超级管理员权限");
    expect((await batch({ codes: ["djuu"], enabled: true }, {})).statusCode).toBe(401);
    expect(await switches()).toEqual({ djuu: false, "172minx": false, vvvdj: false });
  });
});
