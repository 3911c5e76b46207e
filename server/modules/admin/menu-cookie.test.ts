/**
 * The back office's first paint draws a 超级管理员's menu whole (ADR 0078): the login and the
 * session check set `panda_menu` (the session token's hash, HttpOnly, SameSite=Strict, for /panda
 * only), the logout clears it, and the server renders /panda with the super-only entries only
 * when the cookie names a live session of an enabled 超级管理员; an editor, a guest, a logged-out,
 * disabled or demoted admin and a forged cookie get the menu every admin sees. The hash opens no
 * API call, and the page is kept by no cache. Real app, production web build.
 */
import { eq } from "drizzle-orm";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureWebBuild } from "../../../e2e/web-server.js";
import { admins } from "../../db/schema/index.js";
import { createTestAdmin } from "../../testing/admins.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { hashToken } from "../accounts/session-service.js";
import { adminWithPassword } from "../admin-accounts/test-fixtures.js";
import { ADMIN_MENU_COOKIE } from "./menu-cookie.js";

/** Menu entries only a 超级管理员 sees, and one every admin sees. */
const SUPER_ONLY = ["来源管理", "来源插件", "管理员", "审计日志", "站点设置", "用户列表"];
const EVERYONE = "套曲列表";

describe.each(testEngines())("the back office's menu cookie on %s", (engine) => {
  let t: TestApp;

  const page = async (cookie?: string, url = "/panda/") => {
    const res = await t.app.inject({ url, headers: { "accept-encoding": "gzip", ...(cookie ? { cookie: `${ADMIN_MENU_COOKIE}=${cookie}` } : {}) } });
    expect(res.statusCode, url).toBe(200);
    const html = res.headers["content-encoding"] === "gzip" ? gunzipSync(res.rawPayload).toString() : res.body;
    return { html, headers: res.headers };
  };
  /** The server's menu: the sider's markup (the skeleton and scripts left out). */
  const menuOf = (html: string) => html.slice(html.indexOf('data-testid="admin-sider"'), html.indexOf('data-testid="admin-skeleton"'));
  const drawsSuperMenu = (html: string) => {
    const menu = menuOf(html);
    expect(menu).toContain(EVERYONE);
    const shown = SUPER_ONLY.filter((label) => menu.includes(`>${label}<`));
    expect([0, SUPER_ONLY.length], shown.join()).toContain(shown.length);
    return shown.length === SUPER_ONLY.length;
  };
  const setCookieOf = (headers: Record<string, unknown>) => ([] as string[]).concat((headers["set-cookie"] as string | string[] | undefined) ?? []).find((c) => c.startsWith(`${ADMIN_MENU_COOKIE}=`));

  beforeAll(async () => {
    ensureWebBuild();
    t = await createTestApp(engine, { web: true });
  }, 180_000);
  afterAll(() => t?.close());

  it("the login sets it: the token's hash, HttpOnly, SameSite=Strict, for /panda, as long as the session", async () => {
    const admin = await adminWithPassword(t.database.db, { password: "Panda-2026" });
    const res = await t.app.inject({ method: "POST", url: "/api/pandaadmin/login", payload: { username: admin.username, password: "Panda-2026" }, remoteAddress: "10.88.0.1" });
    expect(res.statusCode).toBe(200);
    const token = res.json().data.token as string;
    const cookie = setCookieOf(res.headers)!;
    expect(cookie).toBe(`${ADMIN_MENU_COOKIE}=${hashToken(token)}; Max-Age=86400; Path=/panda; HttpOnly; SameSite=Strict`);
    expect(cookie).not.toContain(token);
  });

  it("the session check sets it, the logout clears it", async () => {
    const boss = await createTestAdmin(t.database.db, { role: "super" });
    const check = await t.app.inject({ url: "/api/pandaadmin/check", headers: boss.headers });
    expect(setCookieOf(check.headers)).toBe(`${ADMIN_MENU_COOKIE}=${hashToken(boss.token)}; Max-Age=86400; Path=/panda; HttpOnly; SameSite=Strict`);
    // A refused check (no session) sets nothing.
    expect(setCookieOf((await t.app.inject({ url: "/api/pandaadmin/check", headers: { authorization: "Bearer nosuchtokennosuchtokennosuchtoken" } })).headers)).toBeUndefined();
    const out = await t.app.inject({ method: "POST", url: "/pandaadmin/index/logout", headers: boss.headers });
    expect(setCookieOf(out.headers)).toMatch(new RegExp(`^${ADMIN_MENU_COOKIE}=; Max-Age=0; Path=/panda; Expires=[^;]+; HttpOnly; SameSite=Strict$`, "u"));
  });

  it("a live 超级管理员 session's cookie draws the whole menu; an editor's, a guest's or a forged one the menu every admin sees", async () => {
    const boss = await createTestAdmin(t.database.db, { role: "super" });
    const editor = await createTestAdmin(t.database.db, { role: "editor" });
    expect(drawsSuperMenu((await page(hashToken(boss.token))).html)).toBe(true);
    expect(drawsSuperMenu((await page(hashToken(boss.token), "/panda/sutieList")).html)).toBe(true);
    expect(drawsSuperMenu((await page(hashToken(editor.token))).html)).toBe(false);
    expect(drawsSuperMenu((await page()).html)).toBe(false);
    for (const forged of ["super", boss.token, "0".repeat(64), hashToken(boss.token).toUpperCase(), `${hashToken(boss.token)}x`]) {
      expect(drawsSuperMenu((await page(forged)).html), forged).toBe(false);
    }
  });

  it("a logged-out, disabled or demoted 超级管理员 gets the menu every admin sees", async () => {
    const out = await createTestAdmin(t.database.db, { role: "super" });
    await t.app.inject({ method: "POST", url: "/pandaadmin/index/logout", headers: out.headers });
    expect(drawsSuperMenu((await page(hashToken(out.token))).html)).toBe(false);

    const disabled = await createTestAdmin(t.database.db, { role: "super" });
    expect(drawsSuperMenu((await page(hashToken(disabled.token))).html)).toBe(true);
    await t.database.db.update(admins).set({ status: 0 }).where(eq(admins.id, disabled.id));
    expect(drawsSuperMenu((await page(hashToken(disabled.token))).html)).toBe(false);

    const demoted = await createTestAdmin(t.database.db, { role: "super" });
    await t.database.db.update(admins).set({ role: "editor" }).where(eq(admins.id, demoted.id));
    expect(drawsSuperMenu((await page(hashToken(demoted.token))).html)).toBe(false);
  });

  it("the hash is no token, and the page is kept by no cache", async () => {
    const boss = await createTestAdmin(t.database.db, { role: "super" });
    const asToken = await t.app.inject({ url: "/api/pandaadmin/check", headers: { authorization: `Bearer ${hashToken(boss.token)}` } });
    expect(asToken.statusCode).toBe(401);
    // Nor is the cookie alone a login on any API call.
    const byCookie = await t.app.inject({ url: "/api/pandaadmin/check", headers: { cookie: `${ADMIN_MENU_COOKIE}=${hashToken(boss.token)}` } });
    expect(byCookie.statusCode).toBe(401);
    const { html, headers } = await page(hashToken(boss.token));
    expect(headers["cache-control"]).toBe("private, no-store");
    // Nothing of the admin but the role: no name, id or token in the page.
    const [row] = await t.database.db.select().from(admins).where(eq(admins.id, boss.id));
    expect(html).not.toContain(row!.username);
    expect(html).not.toContain(boss.token);
    expect(html).not.toContain(hashToken(boss.token));
  });
});
