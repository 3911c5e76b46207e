/**
 * 来源插件's 批量启用/停用 (ADR 0078): `POST /api/pandaadmin/plugins/switch {platforms, enabled}`
 * switches every plugin named or none, each as its own switch would (its source follows), with
 * an audit row per plugin that changes; an unknown plugin is 404 with nothing changed, a bad body
 * a Chinese 400, an editor 403.
 */
import { and, asc, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, sourceSites } from "../../db/schema/index.js";
import { createTestAdmin } from "../../testing/admins.js";
import { startFixtureSite, type FixtureSite } from "../../testing/fixture-site.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { uploadPlugin } from "./testing/upload.js";
import { testEngines } from "../../testing/test-db.js";
import { serveYedian, yedianPlugin } from "./testing/yedian.js";

describe.each(testEngines())("batch switch of plugins on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let site: FixtureSite;
  let boss: Awaited<ReturnType<typeof createTestAdmin>>;
  let editor: Awaited<ReturnType<typeof createTestAdmin>>;

  const upload = async (code: string) => {
    const res = await uploadPlugin(app, boss.headers, code);
    expect(res.statusCode, res.body).toBe(200);
  };
  const batch = (payload: unknown, headers: Record<string, string> = boss.headers) =>
    app.inject({ method: "POST", url: "/api/pandaadmin/plugins/switch", headers, payload: payload as object });
  const state = async () => {
    const plugins = (await app.inject({ url: "/api/pandaadmin/plugins", headers: boss.headers })).json().data.plugins as { platform: string; enabled: boolean; source: string }[];
    const sites = await testApp.database.db.select({ code: sourceSites.code, enabled: sourceSites.enabled }).from(sourceSites);
    return Object.fromEntries(plugins.map((p) => [p.platform, [p.enabled, sites.find((s) => s.code === p.source)?.enabled]]));
  };
  const audits = async () =>
    (await testApp.database.db.select().from(auditLog).where(and(eq(auditLog.targetType, "plugin"), eq(auditLog.action, "plugin.update"))).orderBy(asc(auditLog.id))).map((r) => [
      r.targetId,
      (r.detail as { patch: unknown }).patch,
    ]);

  beforeAll(async () => {
    site = await startFixtureSite();
    serveYedian(site);
    testApp = await createTestApp(engine, { plugins: { allowAddresses: [site.host] } });
    app = testApp.app;
    boss = await createTestAdmin(testApp.database.db, { role: "super" });
    editor = await createTestAdmin(testApp.database.db, { role: "editor" });
    await upload(yedianPlugin("1.0.0", site.url));
    await upload(yedianPlugin("1.0.0", site.url).replaceAll("夜店DJ", "舞曲吧"));
  });

  afterAll(async () => {
    await testApp?.close();
    await site?.close();
  });

  it("switches every plugin named with its source, audits each change, skips one already as asked", async () => {
    expect(await state()).toEqual({ 夜店DJ: [false, false], 舞曲吧: [false, false] });
    const on = await batch({ platforms: ["夜店DJ", "舞曲吧"], enabled: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().msg).toBe("已启用 2 个插件");
    expect(on.json().data.plugins.map((p: { platform: string; enabled: boolean }) => [p.platform, p.enabled])).toEqual([
      ["夜店DJ", true],
      ["舞曲吧", true],
    ]);
    expect(await state()).toEqual({ 夜店DJ: [true, true], 舞曲吧: [true, true] });
    expect(await audits()).toEqual([
      ["夜店DJ", { enabled: true }],
      ["舞曲吧", { enabled: true }],
    ]);
    // The search asks an enabled plugin's source at once (the directory was rebuilt before the answer).
    const sources = (await app.inject({ url: "/api/pandaadmin/sources", headers: boss.headers })).json().data.sources as { code: string; inUse: boolean }[];
    expect(sources.filter((s) => s.code.startsWith("p-")).map((s) => s.inUse)).toEqual([true, true]);

    const off = await batch({ platforms: ["舞曲吧", "夜店DJ"], enabled: false });
    expect(off.json().msg).toBe("已停用 2 个插件");
    await batch({ platforms: ["夜店DJ"], enabled: false });
    expect(await state()).toEqual({ 夜店DJ: [false, false], 舞曲吧: [false, false] });
    expect((await audits()).length).toBe(4);
  });

  it("an unknown plugin among them: 404 部分插件不存在, nothing changed", async () => {
    const res = await batch({ platforms: ["夜店DJ", "没有这个"], enabled: true });
    expect(res.statusCode).toBe(404);
    expect(res.json().msg).toBe("部分插件不存在");
    expect(await state()).toEqual({ 夜店DJ: [false, false], 舞曲吧: [false, false] });
    expect((await audits()).length).toBe(4);
  });

  it("refuses bad bodies with a Chinese 400, and editors with 403", async () => {
    const cases: [unknown, string][] = [
      [{ platforms: [], enabled: true }, "请选择要操作的插件"],
      [{ enabled: false }, "请选择要操作的插件"],
      [{ platforms: Array.from({ length: 51 }, (_, i) => `p${i}`), enabled: true }, "一次最多操作 50 个插件"],
      [{ platforms: ["夜店DJ"] }, "enabled 须为 true 或 false"],
    ];
    for (const [payload, msg] of cases) {
      const res = await batch(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().msg, JSON.stringify(payload)).toContain(msg);
    }
    expect((await batch({ platforms: ["夜店DJ"], enabled: true, variables: {} })).statusCode).toBe(400);
    const refused = await batch({ platforms: ["夜店DJ"], enabled: true }, editor.headers);
    expect(refused.statusCode).toBe(403);
    expect(await state()).toEqual({ 夜店DJ: [false, false], 舞曲吧: [false, false] });
  });
});
