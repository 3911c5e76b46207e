import type { SessionAdmin, SessionUser } from "@contracts/accounts";
import Fastify, { type FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { afterEach, describe, expect, it } from "vitest";
import { authPlugin, bearerToken, declareAccess, type SessionLookup, withAccess } from "./auth.js";
import { registerErrorHandling } from "./error-handler.js";

const USER_TOKEN = "u".repeat(43);
const DISABLED_USER_TOKEN = "d".repeat(43);
const ADMIN_TOKEN = "a".repeat(43);
const DISABLED_ADMIN_TOKEN = "b".repeat(43);
const FIRST_START_ADMIN_TOKEN = "f".repeat(43);

const member = (status: number): SessionUser => ({
  id: 7,
  username: "夜店小王",
  email: "wang@example.cn",
  coins: 0,
  vipUntil: null,
  nickname: "夜店小王",
  avatar: "/img/noimage.png",
  bio: "",
  createTime: 0,
  status,
});
const boss = (status: number, mustChangePassword = false): SessionAdmin => ({ id: 1, username: "admin", nickname: "管理员", avatar: "", status, role: "super", mustChangePassword });

/** Session lookups from a fixed table, counting how often each is asked. */
function fakeSessions() {
  const calls = { user: 0, admin: 0 };
  const users: Record<string, SessionUser> = { [USER_TOKEN]: member(1), [DISABLED_USER_TOKEN]: member(0) };
  const admins: Record<string, SessionAdmin> = { [ADMIN_TOKEN]: boss(1), [DISABLED_ADMIN_TOKEN]: boss(0), [FIRST_START_ADMIN_TOKEN]: boss(1, true) };
  const sessions: SessionLookup = {
    async userByToken(token) {
      calls.user++;
      return users[token] ?? null;
    },
    async adminByToken(token) {
      calls.admin++;
      return admins[token] ?? null;
    },
  };
  return { sessions, calls };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function seamApp(routes: (app: FastifyInstance) => void | Promise<void>) {
  const fake = fakeSessions();
  app = Fastify();
  registerErrorHandling(app);
  await app.register(authPlugin, { sessions: fake.sessions });
  await app.register(async (scope) => routes(scope));
  await app.ready();
  return { app, calls: fake.calls };
}

describe("declaring access levels", () => {
  it("refuses a route without a level at registration", async () => {
    const bare = Fastify();
    app = bare;
    await bare.register(authPlugin, { sessions: fakeSessions().sessions });
    expect(() => bare.get("/x", async () => "x")).toThrow(/GET \/x declares no access level/);
    // Inside a plugin the registration fails the app's start-up.
    bare.register(async (scope) => {
      scope.post("/api/forgot", async () => "x");
    });
    await expect(bare.ready()).rejects.toThrow(/POST \/api\/forgot declares no access level/);
  });

  it("must be registered before any route", async () => {
    const late = Fastify();
    app = late;
    late.get("/early", async () => "x");
    await expect(late.register(authPlugin, { sessions: fakeSessions().sessions })).rejects.toThrow(/before any route/);
  });

  it("refuses unknown levels and optionalUser outside public routes", async () => {
    const bare = Fastify();
    app = bare;
    await bare.register(authPlugin, { sessions: fakeSessions().sessions });
    expect(() => bare.get("/x", { config: { access: "guest" as never } }, async () => "x")).toThrow(/unknown access level/);
    expect(() => bare.get("/y", { config: { access: "user", optionalUser: true } }, async () => "y")).toThrow(
      /optionalUser applies to public routes only/,
    );
    expect(() => bare.get("/z", { config: { access: "super", beforePasswordChange: true } }, async () => "z")).toThrow(
      /beforePasswordChange applies to "admin" routes only/,
    );
  });

  it("gives a group's level to its routes, nested scopes and fastify-plugin plugins; a route's own level wins", async () => {
    // Like @fastify/static or @fastify/swagger-ui: a plugin that registers routes where it is registered.
    const thirdParty = fp(async (scope: FastifyInstance) => {
      scope.get("/vendor/file.js", async () => "js");
    });
    const { app } = await seamApp(async (root) => {
      await root.register(async (group) => {
        declareAccess(group, "admin");
        group.get("/panda/api/a", async () => "a");
        group.post("/api/pandaadmin/login", { config: { access: "public" } }, async () => "login");
        await group.register(async (child) => {
          child.get("/panda/api/child", async () => "child");
        });
      });
      await root.register(withAccess("public", thirdParty), { prefix: "/docs" });
    });
    const levels = Object.fromEntries(app.routeAccess.map((r) => [`${r.method} ${r.url}`, r.access]));
    expect(levels).toEqual({
      "GET /panda/api/a": "admin",
      "HEAD /panda/api/a": "admin",
      "POST /api/pandaadmin/login": "public",
      "GET /panda/api/child": "admin",
      "HEAD /panda/api/child": "admin",
      "GET /docs/vendor/file.js": "public",
      "HEAD /docs/vendor/file.js": "public",
    });
    expect((await app.inject("/docs/vendor/file.js")).body).toBe("js");
    expect((await app.inject("/panda/api/child")).statusCode).toBe(401);
  });

  it("refuses a group level on the root scope or twice on one scope", async () => {
    const bare = Fastify();
    app = bare;
    await bare.register(authPlugin, { sessions: fakeSessions().sessions });
    expect(() => declareAccess(bare, "public")).toThrow(/scope of its own/);
    bare.register(async (scope) => {
      declareAccess(scope, "user");
      declareAccess(scope, "public");
    });
    await expect(bare.ready()).rejects.toThrow(/scope of its own/);
  });
});

describe("guards", () => {
  const routes = (scope: FastifyInstance) => {
    scope.get("/open", { config: { access: "public" } }, async (request) => ({
      access: request.routeOptions.config.access,
    }));
    scope.get("/open/peek", { config: { access: "public" } }, async (request) => request.user);
    scope.post("/play", { config: { access: "public", optionalUser: true } }, async (request) => ({ user: request.user?.id ?? null }));
    scope.get(
      "/me",
      { config: { access: "user" }, schema: {} },
      // Read several times: still one lookup.
      async (request) => ({ id: request.user!.id, again: request.user!.id }),
    );
    scope.get("/me/admin", { config: { access: "user" } }, async (request) => request.admin);
    scope.get("/boss", { config: { access: "admin" } }, async (request) => ({ id: request.admin!.id }));
    scope.get("/boss/super", { config: { access: "super" } }, async (request) => ({ id: request.admin!.id }));
    scope.post("/boss/password", { config: { access: "admin", beforePasswordChange: true } }, async (request) => ({ id: request.admin!.id }));
  };

  it("public routes never look a session up, even with a token", async () => {
    const { app, calls } = await seamApp(routes);
    const res = await app.inject({ url: "/open", headers: bearer(USER_TOKEN) });
    expect(res.json()).toEqual({ access: "public" });
    expect(calls).toEqual({ user: 0, admin: 0 });
  });

  it("reading request.user on a route that did not ask for it is a programming error (500)", async () => {
    const { app } = await seamApp(routes);
    const res = await app.inject({ url: "/open/peek", headers: bearer(USER_TOKEN) });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ code: 0, msg: "服务器内部错误" });
    expect((await app.inject({ url: "/me/admin", headers: bearer(USER_TOKEN) })).statusCode).toBe(500);
  });

  it("user routes: the member once per request; 401 请先登录 / 403 账号已被禁用 as the envelope", async () => {
    const { app, calls } = await seamApp(routes);
    const ok = await app.inject({ url: "/me", headers: bearer(USER_TOKEN) });
    expect(ok.json()).toEqual({ id: 7, again: 7 });
    expect(calls.user).toBe(1);
    expect((await app.inject({ url: "/me", headers: { token: USER_TOKEN } })).statusCode).toBe(200);

    const refused: [Record<string, string>, number, string][] = [
      [{}, 401, "请先登录"],
      [bearer("unknown-token-unknown-token"), 401, "请先登录"],
      [bearer(ADMIN_TOKEN), 401, "请先登录"],
      [{ authorization: "Basic dXNlcjpwdw==" }, 401, "请先登录"],
      [bearer(DISABLED_USER_TOKEN), 403, "账号已被禁用"],
    ];
    for (const [headers, status, msg] of refused) {
      const res = await app.inject({ url: "/me", headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(status);
      expect(res.json()).toEqual({ code: 0, msg, time: expect.any(Number), data: null });
    }
  });

  it("a malformed token is refused without a query", async () => {
    const { app, calls } = await seamApp(routes);
    for (const token of ["' or 1=1 --", "short", "x".repeat(129)]) {
      expect((await app.inject({ url: "/me", headers: { token } })).statusCode).toBe(401);
    }
    expect(calls.user).toBe(0);
  });

  it("admin routes: only an admin token; a member token is no admin", async () => {
    const { app, calls } = await seamApp(routes);
    expect((await app.inject({ url: "/boss", headers: bearer(ADMIN_TOKEN) })).json()).toEqual({ id: 1 });
    expect(calls).toEqual({ user: 0, admin: 1 });
    for (const headers of [{}, bearer(USER_TOKEN), bearer(DISABLED_USER_TOKEN)]) {
      const res = await app.inject({ url: "/boss", headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 0, msg: "请先登录管理后台", data: null });
    }
    const disabled = await app.inject({ url: "/boss", headers: bearer(DISABLED_ADMIN_TOKEN) });
    expect(disabled.statusCode).toBe(403);
    expect(disabled.json()).toMatchObject({ code: 0, msg: "管理员账号已被禁用" });
  });

  it("an account that must change its initial password: 403 请先修改初始密码, except on routes marked beforePasswordChange (issue 25)", async () => {
    const { app } = await seamApp(routes);
    for (const url of ["/boss", "/boss/super"]) {
      const res = await app.inject({ url, headers: bearer(FIRST_START_ADMIN_TOKEN) });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().msg, url).toMatch(/^请先修改初始密码/u);
    }
    const change = await app.inject({ method: "POST", url: "/boss/password", headers: bearer(FIRST_START_ADMIN_TOKEN) });
    expect(change.json()).toEqual({ id: 1 });
    // Everyone else is unaffected by the mark.
    expect((await app.inject({ url: "/boss/super", headers: bearer(ADMIN_TOKEN) })).json()).toEqual({ id: 1 });
  });

  it("optionalUser routes: the enabled member or null, never refused", async () => {
    const { app, calls } = await seamApp(routes);
    const play = (headers: Record<string, string>) => app.inject({ method: "POST", url: "/play", headers }).then((r) => r.json());
    expect(await play(bearer(USER_TOKEN))).toEqual({ user: 7 });
    expect(await play({})).toEqual({ user: null });
    expect(await play(bearer(DISABLED_USER_TOKEN))).toEqual({ user: null });
    expect(await play(bearer(ADMIN_TOKEN))).toEqual({ user: null });
    // No token, no query.
    expect(calls.user).toBe(3);
  });

  it("keeps a registry of every route and method with its level", async () => {
    const { app } = await seamApp(routes);
    const me = app.routeAccess.find((r) => r.url === "/me" && r.method === "GET");
    expect(me).toEqual({ method: "GET", url: "/me", access: "user", optionalUser: false });
    expect(app.routeAccess.find((r) => r.url === "/play")).toMatchObject({ access: "public", optionalUser: true });
  });
});

describe("bearerToken", () => {
  const req = (headers: Record<string, string>) => ({ headers }) as never;
  it("reads Authorization: Bearer, then the original site's token header", () => {
    expect(bearerToken(req({ authorization: "Bearer abc" }))).toBe("abc");
    expect(bearerToken(req({ authorization: "bearer  abc " }))).toBe("abc");
    expect(bearerToken(req({ token: "abc" }))).toBe("abc");
    expect(bearerToken(req({ authorization: "Bearer " }))).toBeUndefined();
    expect(bearerToken(req({ authorization: "Basic abc" }))).toBeUndefined();
    expect(bearerToken(req({}))).toBeUndefined();
  });
});
