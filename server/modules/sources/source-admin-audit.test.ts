/**
 * The back office's sources screen calls (issue 12): every change of a source writes its audit
 * row, a refused one writes none; 'try it' runs one search straight through the adapter of a
 * generic source configured against a fixture site (no cache), and shows its error when the
 * site's layout no longer matches. 超级管理员 only.
 */
import { readFileSync } from "node:fs";
import { asc, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog } from "../../db/schema/index.js";
import { createTestAdmin } from "../../testing/admins.js";
import { html, startFixtureSite, type FixtureSite } from "../../testing/fixture-site.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { createTestUser } from "../../testing/users.js";
import { changedLayoutPage, emptySearchPage, SEARCH_ITEMS, searchPage, serveDjuu } from "./adapters/djuu.fixtures.js";

const djuuConfig = JSON.parse(readFileSync(new URL("./adapters/djuu.generic.json", import.meta.url), "utf8")) as Record<string, unknown>;
const mirrorConfig = (site: FixtureSite): Record<string, unknown> => ({ ...djuuConfig, code: "mirror", name: "镜像DJ", baseUrl: site.url, bases: { api: `${site.url}/app/v1` }, hosts: [site.host], minIntervalMs: 0 });

describe.each(testEngines())("sources screen calls on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let site: FixtureSite;
  let superAdmin: Awaited<ReturnType<typeof createTestAdmin>>;
  let editor: Awaited<ReturnType<typeof createTestAdmin>>;
  const layout = { now: "today" as "today" | "changed" };
  let searches = 0;

  const call = (method: "PUT" | "PATCH" | "DELETE" | "POST", url: string, body?: unknown, headers: Record<string, string> = superAdmin.headers) =>
    app.inject({ method, url: `/api/pandaadmin/sources/${url}`, headers, payload: body as object | undefined });
  const tryIt = (code: string, body: unknown, headers?: Record<string, string>) => call("POST", `${code}/try`, body, headers);
  const audits = async () =>
    (await testApp.database.db.select().from(auditLog).where(eq(auditLog.targetType, "source")).orderBy(asc(auditLog.id))).map((r) => ({
      adminId: r.adminId,
      action: r.action,
      targetId: r.targetId,
      detail: r.detail as { before: Record<string, unknown> | null; after: Record<string, unknown> | null },
    }));

  beforeAll(async () => {
    site = await startFixtureSite();
    site.route("/search", (req, res, match) => {
      searches += 1;
      if (new URL(req.url ?? "/", "http://x").searchParams.get("musicname") !== "夜曲") return html(emptySearchPage())(req, res, match);
      return html(layout.now === "changed" ? changedLayoutPage() : searchPage())(req, res, match);
    });
    serveDjuu(site);
    testApp = await createTestApp(engine, { sourceNetwork: { allowAddresses: [site.host] } });
    app = testApp.app;
    superAdmin = await createTestAdmin(testApp.database.db, { role: "super" });
    editor = await createTestAdmin(testApp.database.db, { role: "editor" });
  });

  afterAll(async () => {
    await testApp?.close();
    await site?.close();
  });

  it("a refused configuration writes no audit row; creating and replacing one write source.create and source.update", async () => {
    const { search: _s, ...broken } = mirrorConfig(site);
    expect((await call("PUT", "mirror", broken)).statusCode).toBe(400);
    expect(await audits()).toEqual([]);

    expect((await call("PUT", "mirror", mirrorConfig(site))).statusCode).toBe(201);
    expect((await call("PUT", "mirror", { ...mirrorConfig(site), name: "镜像DJ二" })).statusCode).toBe(200);
    const rows = await audits();
    expect(rows.map((r) => [r.adminId, r.action, r.targetId])).toEqual([
      [superAdmin.id, "source.create", "mirror"],
      [superAdmin.id, "source.update", "mirror"],
    ]);
    expect(rows[0]!.detail.before).toBeNull();
    expect(rows[0]!.detail.after).toMatchObject({ code: "mirror", adapter: "generic", enabled: true });
    expect(rows[1]!.detail.before).toMatchObject({ code: "mirror" });
    expect((rows[1]!.detail.after!.config as { name: string }).name).toBe("镜像DJ二");
  });

  it("tries a search through the adapter: its first page, no cache; a changed layout answers the adapter's error", async () => {
    const before = searches;
    const first = await tryIt("mirror", { keyword: " 夜曲 " });
    expect(first.statusCode).toBe(200);
    const data = first.json().data;
    expect(data).toMatchObject({ code: "mirror", ok: true, error: null, hasMore: false });
    expect(data.items.map((i: { sourceId: string }) => i.sourceId)).toEqual(SEARCH_ITEMS.map((i) => i.id));
    expect(data.items[0]).toMatchObject({ title: "夜曲(DJ阿福 Electro Rmx 2025 粤语)", url: expect.stringMatching(/\/play\/201001\.html$/u) });
    // Asked again: the site is asked again (no cache between an admin and the site).
    await tryIt("mirror", { keyword: "夜曲" });
    expect(searches).toBe(before + 2);

    layout.now = "changed";
    const broken = await tryIt("mirror", { keyword: "夜曲" });
    expect(broken.statusCode).toBe(200);
    expect(broken.json().data).toMatchObject({ ok: false, items: [], error: { kind: "layout", message: expect.any(String) } });
    layout.now = "today";
    // A try changes nothing: no audit row.
    expect((await audits()).filter((r) => !r.action.startsWith("source."))).toEqual([]);
    expect(await audits()).toHaveLength(2);
  });

  it("try refuses bad input, unknown and switched-off sources with a Chinese message; editors and members may not", async () => {
    for (const [body, msg] of [
      [{}, "请输入搜索关键词"],
      [{ keyword: "  " }, "请输入搜索关键词"],
      [{ keyword: "x".repeat(51) }, "关键词最多 50 个字"],
      [{ keyword: "夜曲", extra: 1 }, undefined],
    ] as const) {
      const res = await tryIt("mirror", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      if (msg) expect(res.json()).toMatchObject({ code: 0, msg });
    }
    expect((await tryIt("nosuch", { keyword: "夜曲" })).json()).toMatchObject({ code: 0, msg: "该来源未启用或没有适配器，无法试搜" });
    expect((await tryIt("djuu", { keyword: "夜曲" })).statusCode).toBe(400); // built-in, not in use here
    expect((await tryIt("mirror", { keyword: "夜曲" }, {})).statusCode).toBe(401);
    const member = await createTestUser(app);
    expect((await tryIt("mirror", { keyword: "夜曲" }, member.headers)).statusCode).toBe(401);
    const refused = await tryIt("mirror", { keyword: "夜曲" }, editor.headers);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().msg).toBe("需要超级管理员权限");
  });

  it("switching, editing and deleting write source.update and source.delete with before and after", async () => {
    expect((await call("PATCH", "mirror", { enabled: false, collectIntervalMinutes: 90 })).statusCode).toBe(200);
    expect((await tryIt("mirror", { keyword: "夜曲" })).statusCode).toBe(400); // switched off: not in use
    expect((await call("PATCH", "mirror", { enabled: "yes" })).statusCode).toBe(400);
    expect((await call("PATCH", "mirror", { name: "x" }, editor.headers)).statusCode).toBe(403);
    expect((await call("DELETE", "djuu")).statusCode).toBe(400); // built-in: refused, no row
    expect((await call("DELETE", "mirror")).statusCode).toBe(200);
    const rows = (await audits()).slice(2);
    expect(rows.map((r) => [r.action, r.targetId])).toEqual([
      ["source.update", "mirror"],
      ["source.delete", "mirror"],
    ]);
    expect(rows[0]!.detail.before).toMatchObject({ enabled: true, collectIntervalMinutes: expect.any(Number) });
    expect(rows[0]!.detail.after).toMatchObject({ enabled: false, collectIntervalMinutes: 90 });
    expect(rows[1]!.detail).toMatchObject({ before: expect.objectContaining({ code: "mirror", enabled: false }), after: null });
  });
});
