import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../db/open.js";
import { admins, sessions, users } from "../../db/schema/index.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { ADMIN_SESSION_TTL_MS, hashToken, sessionService, USER_SESSION_TTL_MS } from "../accounts/session-service.js";

describe.each(testEngines())("admin session check and logout on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let database: DatabaseHandle;
  let adminId: number;
  let userId: number;

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const check = (headers: Record<string, string>) => app.inject({ url: "/api/pandaadmin/check", headers });
  const logout = (headers: Record<string, string>) => app.inject({ method: "POST", url: "/pandaadmin/index/logout", headers });

  beforeAll(async () => {
    testApp = await createTestApp(engine);
    ({ app, database } = testApp);
    const [admin] = await database.db.insert(admins).values({ username: "admin", passwordHash: "x", nickname: "管理员" }).returning();
    adminId = admin.id;
    const [user] = await database.db.insert(users).values({ username: "member", email: "m@example.cn", passwordHash: "x" }).returning();
    userId = user.id;
  });

  afterAll(() => testApp?.close());

  it("answers the signed-in admin, without secrets; the session row holds only the hash and the admin", async () => {
    const token = await sessionService(database.db).createAdminSession(adminId);
    const res = await check(bearer(token));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 1, data: { id: adminId, username: "admin", nickname: "管理员", status: 1 } });
    expect(res.body).not.toContain("password");
    expect((await check({ token })).json().code).toBe(1);
    const [row] = await database.db.select().from(sessions).where(eq(sessions.tokenHash, hashToken(token)));
    expect(row).toMatchObject({ adminId, userId: null });
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBeLessThanOrEqual(ADMIN_SESSION_TTL_MS + 60_000);
  });

  it("a member's token never opens the back office, nor an admin token the member calls", async () => {
    const member = await sessionService(database.db).createUserSession(userId);
    const res = await check(bearer(member));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 0, msg: "请先登录管理后台", data: null });
    const admin = await sessionService(database.db).createAdminSession(adminId);
    const asMember = await app.inject({ url: "/api/user/isloging", headers: bearer(admin) });
    expect(asMember.statusCode).toBe(401);
    expect(asMember.json()).toMatchObject({ code: 0, msg: "请先登录" });
  });

  it("logs out: 退出成功, that session ends and the admin's other sessions live on", async () => {
    const token = await sessionService(database.db).createAdminSession(adminId);
    const other = await sessionService(database.db).createAdminSession(adminId);
    const out = await logout(bearer(token));
    expect(out.statusCode).toBe(200);
    expect(out.json()).toMatchObject({ code: 1, msg: "退出成功", data: null });
    expect((await check(bearer(token))).statusCode).toBe(401);
    expect((await check(bearer(other))).statusCode).toBe(200);
    // The session is gone: logging out with it again is a guest's call.
    expect((await logout(bearer(token))).statusCode).toBe(401);
  });

  it("the member logout cannot end an admin session", async () => {
    const token = await sessionService(database.db).createAdminSession(adminId);
    const out = await app.inject({ method: "POST", url: "/api/user/logout", headers: bearer(token) });
    expect(out.json()).toMatchObject({ code: 1, msg: "退出成功" });
    expect((await check(bearer(token))).statusCode).toBe(200);
  });

  it("deletes expired sessions of members and admins, and only those (the lease holder's sweep)", async () => {
    const live = { admin: await sessionService(database.db).createAdminSession(adminId), member: await sessionService(database.db).createUserSession(userId) };
    const rows = async () => (await database.db.select({ hash: sessions.tokenHash }).from(sessions)).map((r) => r.hash);
    const before = await rows();
    // A day and a minute on, the admin sessions have expired; the members' (30 days) have not.
    const later = sessionService(database.db, () => new Date(Date.now() + ADMIN_SESSION_TTL_MS + 60_000));
    const adminSessions = (await database.db.select().from(sessions).where(eq(sessions.adminId, adminId))).length;
    expect(await later.deleteExpired()).toBe(adminSessions);
    const left = await rows();
    expect(left).toContain(hashToken(live.member));
    expect(left).not.toContain(hashToken(live.admin));
    expect(left).toHaveLength(before.length - adminSessions);
    expect((await check(bearer(live.admin))).statusCode).toBe(401);
    // Past the members' 30 days, theirs go too; a second sweep finds nothing.
    const muchLater = sessionService(database.db, () => new Date(Date.now() + USER_SESSION_TTL_MS + 60_000));
    expect(await muchLater.deleteExpired()).toBe(left.length);
    expect(await muchLater.deleteExpired()).toBe(0);
    expect(await rows()).toEqual([]);
  });

  it("documents both calls in OpenAPI, with the bearer token", async () => {
    const doc = (await app.inject("/api/docs/json")).json();
    expect(doc.paths["/api/pandaadmin/check"].get.security).toEqual([{ bearer: [] }]);
    expect(doc.paths["/pandaadmin/index/logout"].post.security).toEqual([{ bearer: [] }]);
    expect(doc.paths["/api/user/isloging"].get.security).toEqual([{ bearer: [] }]);
  });
});
