/**
 * The route-access matrix (ADR 0015, 0043, 0055), derived from the routes themselves: every route
 * of the real app (web shell included) as registered, with the level its options declare, is
 * called as each kind of caller. A new route is covered without editing a list.
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureWebBuild, ROOT } from "../e2e/web-server.js";
import { admins, users } from "./db/schema/index.js";
import { ACCESS_LEVELS, type AccessLevel, type RouteAccess } from "./http/auth.js";
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
/** The shape of one of our tokens, but no session's. */
const UNKNOWN = "not-a-real-token-at-all-0000000000000000000";

let seq = 0;

/** A file of the web build's client directory, served by its own public route. */
function isBuiltFile(url: string): boolean {
  if (url.includes(":") || url.includes("*")) return false;
  const file = path.join(ROOT, "build", "client", url);
  return file.startsWith(path.join(ROOT, "build", "client") + path.sep) && existsSync(file) && statSync(file).isFile();
}

/** The guards' own refusals: a public route never answers one of these. */
const GUARD_MESSAGES = ["请先登录", "账号已被禁用", "请先登录管理后台", "管理员账号已被禁用", "需要超级管理员权限"];

/** What a caller gets from a route of a level: through the guard, or its refusal. */
function expectedAnswer(level: AccessLevel, who: string): "admitted" | [number, string] {
  if (level === "public") return "admitted";
  if (level === "user") return who === "member" ? "admitted" : [401, "请先登录"];
  if (who === "guest" || who === "member") return [401, "请先登录管理后台"];
  if (level === "super" && who === "editor") return [403, "需要超级管理员权限"];
  return "admitted";
}

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
  async function newAdmin(status = 1, role: "super" | "editor" = "editor") {
    const [row] = await db()
      .insert(admins)
      .values({ username: `boss${++seq}`, passwordHash: "x", status, role })
      .returning();
    return row.id;
  }
  const userToken = async (status = 1) => sessions().createUserSession(await newUser(status));
  const adminToken = async (status = 1, role: "super" | "editor" = "editor") => sessions().createAdminSession(await newAdmin(status, role));

  const call = (route: RouteAccess, headers: Record<string, string>) =>
    app.inject({ method: route.method as "GET", url: concrete(route.url), headers });
  /** The route refuses these headers with this status and envelope (HEAD answers carry no body). */
  async function expectRefused(route: RouteAccess, headers: Record<string, string>, status: number, msg: string) {
    const res = await call(route, headers);
    const what = `${route.method} ${route.url} ${JSON.stringify(headers)}`;
    expect(res.statusCode, what).toBe(status);
    if (route.method !== "HEAD") expect(res.json(), what).toEqual({ code: 0, msg, time: expect.any(Number), data: null });
  }
  /** A live account of the right kind passes the guard (whatever the handler then answers). */
  async function expectAdmitted(route: RouteAccess, token: string) {
    const res = await call(route, bearer(token));
    expect([401, 403], `${route.method} ${route.url} with a live account`).not.toContain(res.statusCode);
  }

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

  it("no back-office route is public but the admin login; no page route is other than public (pages guard in the browser)", () => {
    const backOffice = routes.filter((r) => /^\/(api\/pandaadmin|pandaadmin|api\/sutie)\//.test(r.url));
    expect(backOffice.length).toBeGreaterThan(20);
    const open = backOffice.filter((r) => r.access === "public" || r.access === "user").map((r) => `${r.method} ${r.url}`);
    expect(open).toEqual(["POST /api/pandaadmin/login"]);
    expect(find("GET", "/*")).toMatchObject({ access: "public" });
  });

  it("the OpenAPI document lists every API route (so the fuzz reaches them all) and nothing unregistered", async () => {
    const doc = (await app.inject({ url: "/api/docs/json" })).json() as { paths: Record<string, Record<string, unknown>> };
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p.replace(/\{(\w+)\}/g, ":$1")}`)),
    );
    const api = routes
      .filter((r) => r.method !== "HEAD" && /^\/(api|pandaadmin)\//.test(r.url) && !r.url.startsWith("/api/docs"))
      .map((r) => `${r.method} ${r.url}`);
    expect(api.filter((key) => !documented.has(key)), "API routes missing from the OpenAPI document").toEqual([]);
    expect([...documented].filter((key) => !api.includes(key)), "documented but not registered").toEqual([]);
  });

  it("the whole matrix: every registered route, by its declared level, as a guest, a member, an editor and a 超级管理员", async () => {
    const wrong: string[] = [];
    for (const route of routes) {
      if (route.method === "HEAD" || isBuiltFile(route.url)) continue;
      const callers: [string, Record<string, string>][] = [
        ["guest", {}],
        ["member", bearer(await userToken())],
        ["editor", bearer(await adminToken(1, "editor"))],
        ["super", bearer(await adminToken(1, "super"))],
      ];
      for (const [who, headers] of callers) {
        const res = await call(route, headers);
        const msg = res.headers["content-type"]?.toString().startsWith("application/json") ? (res.json() as { msg?: string }).msg : undefined;
        const expected = expectedAnswer(route.access, who);
        const got = expected === "admitted" ? ![401, 403].includes(res.statusCode) || !GUARD_MESSAGES.includes(msg ?? "") : res.statusCode === expected[0] && msg === expected[1];
        if (!got) wrong.push(`${route.method} ${route.url} as ${who}: ${res.statusCode} ${msg ?? ""}, expected ${String(expected)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("groups and third-party plugins declared theirs: health, docs, media, SEO, static files, pages", () => {
    const expected: [string, string, string][] = [
      ["GET", "/healthz", "public"],
      ["GET", "/api/docs/json", "public"],
      ["GET", "/robots.txt", "public"],
      ["GET", "/sitemap.xml", "public"],
      ["GET", "/manifest.webmanifest", "public"],
      ["GET", "/sw.js", "public"],
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
      const guests: Record<string, string>[] = [
        {},
        bearer(UNKNOWN),
        { token: "' or 1=1 --" },
        bearer(expired),
        bearer(await adminToken()),
      ];
      for (const headers of guests) await expectRefused(route, headers, 401, "请先登录");
      await expectRefused(route, bearer(await userToken(0)), 403, "账号已被禁用");
      // A fresh member each time: whatever the route does to its account touches no other probe.
      await expectAdmitted(route, await userToken());
    }
  });

  it("every admin route: 401 for a guest and a member, 403 for a disabled admin; an editor (content) gets through", async () => {
    const expired = await sessionService(db(), past).createAdminSession(await newAdmin());
    for (const route of of("admin")) {
      const guests = [{}, bearer(UNKNOWN), bearer(expired), bearer(await userToken()), bearer(await userToken(0))];
      for (const headers of guests) await expectRefused(route, headers, 401, "请先登录管理后台");
      await expectRefused(route, bearer(await adminToken(0)), 403, "管理员账号已被禁用");
      await expectAdmitted(route, await adminToken());
    }
  });

  it("every super route: 401 for a guest and a member, 403 for a disabled admin and for an editor; a 超级管理员 gets through", async () => {
    const superRoutes = of("super");
    expect(superRoutes.length).toBeGreaterThan(0);
    for (const route of superRoutes) {
      for (const headers of [{}, bearer(UNKNOWN), bearer(await userToken())]) await expectRefused(route, headers, 401, "请先登录管理后台");
      await expectRefused(route, bearer(await adminToken(0, "super")), 403, "管理员账号已被禁用");
      await expectRefused(route, bearer(await adminToken(1, "editor")), 403, "需要超级管理员权限");
      await expectAdmitted(route, await adminToken(1, "super"));
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
