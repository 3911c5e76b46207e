import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../db/open.js";
import { sessions, users } from "../../db/schema/index.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { hashToken, sessionService, USER_SESSION_TTL_MS } from "./session-service.js";

describe.each(testEngines())("session check and logout on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let database: DatabaseHandle;
  let userId: number;

  const isloging = (headers: Record<string, string> = {}) => app.inject({ url: "/api/user/isloging", headers });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  beforeAll(async () => {
    testApp = await createTestApp(engine);
    ({ app, database } = testApp);
    const [user] = await database.db
      .insert(users)
      .values({ username: "夜店小王", email: "wang@example.cn", passwordHash: "x", bio: "爱听慢摇" })
      .returning();
    userId = user.id;
  });

  afterAll(() => testApp?.close());

  it("answers the signed-in member's info for a live token, without secrets", async () => {
    const token = await sessionService(database.db).createUserSession(userId);
    const res = await isloging(bearer(token));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      code: 1,
      data: { id: userId, username: "夜店小王", nickname: "夜店小王", email: "wang@example.cn", avatar: "/img/noimage.png", status: 1 },
    });
    expect(res.body).not.toContain("password");
    // The `token` header the original site used works as well.
    expect((await isloging({ token })).json().code).toBe(1);
    // Only the hash is stored.
    const stored = await database.db.select().from(sessions).where(eq(sessions.tokenHash, hashToken(token)));
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it("answers 401 请先登录 without a token, with an unknown one and with an expired one", async () => {
    const past = () => new Date(Date.now() - USER_SESSION_TTL_MS - 60_000);
    const expired = await sessionService(database.db, past).createUserSession(userId);
    const cases: Record<string, string>[] = [{}, bearer("nope"), bearer(""), bearer(expired), { token: "' or 1=1 --" }];
    for (const headers of cases) {
      const res = await isloging(headers);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 0, msg: "请先登录" });
    }
  });

  it("answers 403 账号已被禁用 for a disabled member", async () => {
    const [banned] = await database.db
      .insert(users)
      .values({ username: "banned", email: "banned@example.cn", passwordHash: "x", status: 0 })
      .returning();
    const token = await sessionService(database.db).createUserSession(banned.id);
    const res = await isloging(bearer(token));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 0, msg: "账号已被禁用" });
  });

  it("logs out: the token stops working, and logging out again is harmless", async () => {
    const token = await sessionService(database.db).createUserSession(userId);
    const out = await app.inject({ method: "POST", url: "/api/user/logout", headers: bearer(token) });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toMatchObject({ code: 1, msg: "退出成功" });
    expect((await isloging(bearer(token))).statusCode).toBe(401);
    const again = await app.inject({ method: "POST", url: "/api/user/logout", headers: bearer(token) });
    expect(again.json().code).toBe(1);
  });

  it("documents both routes in OpenAPI", async () => {
    const doc = (await app.inject("/api/docs/json")).json();
    expect(doc.paths["/api/user/isloging"].get.responses["200"]).toBeDefined();
    expect(doc.paths["/api/user/logout"].post).toBeDefined();
  });
});
