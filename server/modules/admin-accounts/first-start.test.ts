/**
 * The admin account made at first start (issue 25): its password was shown once, so it must be
 * changed before anything else. Login and the session check work; every other admin call answers
 * 403 请先修改初始密码 until POST /api/pandaadmin/password; then the account works as any other.
 */
import { access, readFile } from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admins } from "../../db/schema/index.js";
import { DEFAULT_ADMIN_USERNAME, ensureAdminAccount, INITIAL_PASSWORD_FILE } from "../../db/seed/admin.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";

describe.each(testEngines())("the first-start admin account on %s", (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let password: string;

  beforeAll(async () => {
    t = await createTestApp(engine);
    app = t.app;
    expect(await ensureAdminAccount(t.database, undefined, { to: "file", dataDir: t.dataDir })).toEqual({ created: true });
    password = (await readFile(path.join(t.dataDir, INITIAL_PASSWORD_FILE), "utf8")).trim();
  });
  afterAll(() => t?.close());

  const login = async (pass = password) => {
    const res = await app.inject({ method: "POST", url: "/api/pandaadmin/login", payload: { username: DEFAULT_ADMIN_USERNAME, password: pass } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { token: string; admin: { mustChangePassword: boolean } };
  };
  const as = (token: string) => ({ authorization: `Bearer ${token}` });

  it("signs in, is told to change its password, and can do nothing else until it does", async () => {
    const first = await login();
    expect(first.admin.mustChangePassword).toBe(true);
    await access(path.join(t.dataDir, INITIAL_PASSWORD_FILE));
    const check = await app.inject({ url: "/api/pandaadmin/check", headers: as(first.token) });
    expect(check.statusCode).toBe(200);
    expect(check.json().data).toMatchObject({ username: DEFAULT_ADMIN_USERNAME, mustChangePassword: true });

    for (const [method, url] of [
      ["GET", "/api/pandaadmin/dashboard"],
      ["GET", "/api/pandaadmin/admins/index"],
      ["POST", "/api/pandaadmin/admins"],
      ["GET", "/api/pandaadmin/collect/index"],
    ] as const) {
      const res = await app.inject({ method, url, headers: as(first.token), payload: method === "POST" ? {} : undefined });
      expect(res.statusCode, url).toBe(403);
      expect(res.json(), url).toMatchObject({ code: 0, msg: "请先修改初始密码：该账号的密码由系统首次启动时生成或由超级管理员重置，修改密码后才能继续操作" });
    }

    // Logging out is allowed (another session of the same account).
    const second = await login();
    const out = await app.inject({ method: "POST", url: "/pandaadmin/index/logout", headers: as(second.token) });
    expect(out.statusCode, out.body).toBe(200);

    const changed = await app.inject({
      method: "POST",
      url: "/api/pandaadmin/password",
      headers: as(first.token),
      payload: { oldPassword: password, password: "new-boss-pass-1", confirm: "new-boss-pass-1" },
    });
    expect(changed.json()).toMatchObject({ code: 1, msg: "密码修改成功" });
    const [row] = await t.database.db.select().from(admins).where(eq(admins.username, DEFAULT_ADMIN_USERNAME));
    expect(row!.mustChangePassword).toBe(false);
    // The file of the first-start password goes with it.
    await expect(access(path.join(t.dataDir, INITIAL_PASSWORD_FILE))).rejects.toMatchObject({ code: "ENOENT" });

    // The same session goes on, now with every call open.
    expect((await app.inject({ url: "/api/pandaadmin/dashboard", headers: as(first.token) })).statusCode).toBe(200);
    expect((await app.inject({ url: "/api/pandaadmin/check", headers: as(first.token) })).json().data.mustChangePassword).toBe(false);
    expect((await login("new-boss-pass-1")).admin.mustChangePassword).toBe(false);
  });
});
