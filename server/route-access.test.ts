/**
 * The route-access matrix (ADR 0015): every route of the real app, web shell included, has a
 * declared level, and every `user` and `admin` route refuses whoever it must refuse.
 */
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureWebBuild } from "../e2e/web-server.js";
import { admins, users } from "./db/schema/index.js";
import { ACCESS_LEVELS, type RouteAccess } from "./http/auth.js";
import {
  ADMIN_SESSION_TTL_MS,
  sessionService,
  USER_SESSION_TTL_MS,
} from "./modules/accounts/session-service.js";
import { createTestApp, type TestApp } from "./testing/test-app.js";
import { testEngines } from "./testing/test-db.js";

/** A concrete address for a route pattern: parameters become 1, wildcards a file name. */
const concrete = (url: string) => url.replace(/:\w+(\([^)]*\))?/g, "1").replace(/\*/g, "probe");

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

let seq = 0;

describe.each(testEngines())("route access on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let routes: readonly RouteAccess[];

  const db = () => testApp.database.db;
  const sessions = () => sessionService(db());
  const past = () => new Date(Date.now() - Math.max(USER_SESSION_TTL_MS, ADMIN_SESSION_TTL_MS) - 60_000);

  async function newUser(status = 1) {
    const n = ++seq;
    const [row] = await db()
      .insert(users)
      .values({ username: `访问测试${n}`, email: `access${n}@example.cn`, passwordHash: "x", status })
      .returning();
    return row.id;
  }
  async function newAdmin(status = 1) {
    const [row] = await db()
      .insert(admins)
      .values({ username: `boss${++seq}`, passwordHash: "x", status })
      .returning();
    return row.id;
  }
  const userToken = async (status = 1) => sessions().createUserSession(await newUser(status));
  const adminToken = async (status = 1) => sessions().createAdminSession(await newAdmin(status));

  const call = (route: RouteAccess, headers: Record<string, string>) =>
    app.inject({ method: route.method as "GET", url: concrete(route.url), headers });
  const msgOf = (route: RouteAccess, body: string) => (route.method === "HEAD" ? undefined : JSON.parse(body).msg);

  const of = (level: string) => routes.filter((r) => r.access === level);
  const find = (method: string, url: string) => routes.find((r) => r.method === method && r.url === url);

  beforeAll(async () => {
    // The web shell registers the static files and the page catch-all: build it when stale.
    ensureWebBuild();
    testApp = await createTestApp(engine, { web: true });
    app = testApp.app;
    routes = app.routeAccess;
  });

  afterAll(() => testApp?.close());

  it("every registered route has a declared level, and every level has routes", () => {
    expect(routes.length).toBeGreaterThan(10);
    for (const route of routes) expect(ACCESS_LEVELS, `${route.method} ${route.url}`).toContain(route.access);
    for (const level of ACCESS_LEVELS) expect(of(level).length, level).toBeGreaterThan(0);
  });

  it("groups and third-party plugins declared theirs: health, docs, media, SEO, static files, pages", () => {
    const expected: [string, string, string][] = [
      ["GET", "/healthz", "public"],
      ["GET", "/api/docs/json", "public"],
      ["GET", "/robots.txt", "public"],
      ["GET", "/sitemap.xml", "public"],
      ["GET", "/media/*", "public"],
      ["HEAD", "/uploads/*", "public"],
      ["GET", "/favicon.svg", "public"],
      ["GET", "/*", "public"],
      ["GET", "/api/user/isloging", "user"],
      ["POST", "/api/user/logout", "public"],
      ["GET", "/api/pandaadmin/check", "admin"],
      ["POST", "/pandaadmin/index/logout", "admin"],
    ];
    for (const [method, url, access] of expected) {
      expect(find(method, url), `${method} ${url}`).toMatchObject({ access });
    }
    // A static file of the built site (one route per file).
    expect(routes.some((r) => r.url.startsWith("/assets/") && r.access === "public")).toBe(true);
  });

  it("the benchmarked public calls never look a session up; the play report opts in to the optional user", () => {
    for (const url of ["/api/forntend/getsort", "/api/forntend/getmusicinfo", "/api/forntend/index", "/api/forntend/indexsearch"]) {
      expect(find("GET", url), url).toEqual({ method: "GET", url, access: "public", optionalUser: false });
    }
    expect(find("POST", "/api/forntend/play")).toMatchObject({ access: "public", optionalUser: true });
  });

  it("every user route: 401 for a guest, a bad, expired or admin token; 403 for a disabled member; a member gets through", async () => {
    const expired = await sessionService(db(), past).createUserSession(await newUser());
    for (const route of of("user")) {
      const name = `${route.method} ${route.url}`;
      const guests: Record<string, string>[] = [
        {},
        bearer("not-a-real-token-at-all-0000000000000000000"),
        { token: "' or 1=1 --" },
        bearer(expired),
        bearer(await adminToken()),
      ];
      for (const headers of guests) {
        const res = await call(route, headers);
        expect(res.statusCode, `${name} ${JSON.stringify(headers)}`).toBe(401);
        expect(msgOf(route, res.body) ?? "请先登录", name).toBe("请先登录");
      }
      const disabled = await call(route, bearer(await userToken(0)));
      expect(disabled.statusCode, name).toBe(403);
      expect(msgOf(route, disabled.body) ?? "账号已被禁用", name).toBe("账号已被禁用");
      // A fresh member each time: whatever the route does to its account touches no other probe.
      const member = await call(route, bearer(await userToken()));
      expect([401, 403], `${name} as a member`).not.toContain(member.statusCode);
    }
  });

  it("every admin route: 401 for a guest and a member, 403 for a disabled admin; an admin gets through", async () => {
    const expired = await sessionService(db(), past).createAdminSession(await newAdmin());
    for (const route of of("admin")) {
      const name = `${route.method} ${route.url}`;
      for (const headers of [{}, bearer("not-a-real-token-at-all-0000000000000000000"), bearer(expired)]) {
        const res = await call(route, headers);
        expect(res.statusCode, `${name} ${JSON.stringify(headers)}`).toBe(401);
        expect(msgOf(route, res.body) ?? "请先登录管理后台", name).toBe("请先登录管理后台");
      }
      for (const status of [1, 0]) {
        const asMember = await call(route, bearer(await userToken(status)));
        expect([401, 403], `${name} as a member (status ${status})`).toContain(asMember.statusCode);
      }
      const disabled = await call(route, bearer(await adminToken(0)));
      expect(disabled.statusCode, name).toBe(403);
      expect(msgOf(route, disabled.body) ?? "管理员账号已被禁用", name).toBe("管理员账号已被禁用");
      const admin = await call(route, bearer(await adminToken()));
      expect([401, 403], `${name} as an admin`).not.toContain(admin.statusCode);
    }
  });

  it("disabling a member or an admin takes effect on their very next request", async () => {
    const userId = await newUser();
    const token = await sessions().createUserSession(userId);
    const isloging = () => app.inject({ url: "/api/user/isloging", headers: bearer(token) });
    expect((await isloging()).statusCode).toBe(200);
    await db().update(users).set({ status: 0 }).where(eq(users.id, userId));
    expect((await isloging()).statusCode).toBe(403);
    await db().update(users).set({ status: 1 }).where(eq(users.id, userId));
    expect((await isloging()).statusCode).toBe(200);

    const adminId = await newAdmin();
    const admin = await sessions().createAdminSession(adminId);
    const check = () => app.inject({ url: "/api/pandaadmin/check", headers: bearer(admin) });
    expect((await check()).statusCode).toBe(200);
    await db().update(admins).set({ status: 0 }).where(eq(admins.id, adminId));
    expect((await check()).statusCode).toBe(403);
  });
});
