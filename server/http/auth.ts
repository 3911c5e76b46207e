/**
 * The auth seam (ADR 0015). Every route declares who may call it, in its own options
 * (`config: { access: "public" | "user" | "admin" | "super" }`) or through its route group
 * (`declareAccess(scope, level)` / `withAccess(level, plugin)`). One onRoute hook reads the
 * level and attaches the matching guard, so a route cannot forget it; a route without a level
 * stops the app at registration.
 *
 * The guards resolve the bearer token once per request, and only on routes that need it:
 * `user` routes get `request.user` (401 请先登录, 403 账号已被禁用), `admin` routes get
 * `request.admin` (from the separate admin sessions; `super` routes only 超级管理员, else 403
 * 需要超级管理员权限; an account that must change its initial password gets 403 请先修改初始密码
 * except on routes marked `beforePasswordChange`), and public routes that opt in with
 * `optionalUser: true` get `request.user` or null. Other public routes touch no session at all.
 */
import {
  accountMessages,
  adminMessages,
  type SessionAdmin,
  type SessionUser,
} from "@contracts/accounts";
import { ACCESS_LEVELS, type AccessLevel } from "@contracts/access";
import type {
  FastifyInstance,
  FastifyPluginAsync,
  FastifyPluginCallback,
  FastifyPluginOptions,
  FastifyRequest,
  onRequestHookHandler,
} from "fastify";
import fp from "fastify-plugin";
import { AppError } from "../errors.js";

// The levels, shared with the pages' declarations and the browser's guards.
export { ACCESS_LEVELS, type AccessLevel };

/** One registered route (per method) and who may call it; the route-access test walks these. */
export interface RouteAccess {
  method: string;
  url: string;
  access: AccessLevel;
  optionalUser: boolean;
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** Who may call this route. Routes in a group that declared a level may leave it out. */
    access?: AccessLevel;
    /** A public route that wants the signed-in member when there is one (else `request.user` is null). */
    optionalUser?: boolean;
    /**
     * An admin route the first-start account may call before changing its password (the
     * session check, logout, the password change itself); every other admin route answers it
     * 403 请先修改初始密码.
     */
    beforePasswordChange?: boolean;
  }
  interface FastifyRequest {
    /**
     * The signed-in member: never null on `user` routes, null for a guest on `optionalUser`
     * routes. Reading it on any other route is a programming error (it throws).
     */
    readonly user: SessionUser | null;
    /** The signed-in admin: never null on `admin` routes. Reading it elsewhere throws. */
    readonly admin: SessionAdmin | null;
  }
  interface FastifyInstance {
    /** Every route registered so far with its access level (method by method). */
    readonly routeAccess: readonly RouteAccess[];
  }
}

/** The session lookups the guards need (server/modules/accounts/session-service.ts). */
export interface SessionLookup {
  /** The member behind a live member token, whatever the member's status, or null. */
  userByToken(token: string): Promise<SessionUser | null>;
  /** The admin behind a live admin token, whatever the admin's status, or null. */
  adminByToken(token: string): Promise<SessionAdmin | null>;
}

/** The browser sends its localStorage token as `Authorization: Bearer …` (or a `token` header). */
export function bearerToken(request: FastifyRequest): string | undefined {
  const auth = request.headers.authorization;
  if (auth) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (match) return match[1];
  }
  const header = request.headers.token;
  return typeof header === "string" && header ? header : undefined;
}

/** Our tokens are 43 base64url characters; anything far from that is unknown without a query. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,128}$/;

const kUser = Symbol("auth.user");
const kAdmin = Symbol("auth.admin");
const kGroupAccess = Symbol("auth.groupAccess");
const kRoot = Symbol("auth.root");

/** Per-request slots: undefined until the route's guard has resolved them. */
interface RequestSlots {
  [kUser]?: SessionUser | null;
  [kAdmin]?: SessionAdmin | null;
}
interface ScopeMarks {
  [kGroupAccess]?: AccessLevel;
  [kRoot]?: true;
}

const slots = (request: FastifyRequest) => request as FastifyRequest & RequestSlots;
const marks = (scope: FastifyInstance) => scope as FastifyInstance & ScopeMarks;

function isAccessLevel(value: unknown): value is AccessLevel {
  return (ACCESS_LEVELS as readonly unknown[]).includes(value);
}

/**
 * The guards, as onRequest hooks: they run before the body is read, so a guest's upload is
 * refused unread. The onRoute hook attaches exactly one of them to each non-public route.
 */
export function authGuards(sessions: SessionLookup) {
  const token = (request: FastifyRequest) => {
    const value = bearerToken(request);
    return value && TOKEN_SHAPE.test(value) ? value : undefined;
  };
  const lookupUser = async (request: FastifyRequest) => {
    const t = token(request);
    return t ? sessions.userByToken(t) : null;
  };

  /** `user` routes: an enabled member, else 401 请先登录 / 403 账号已被禁用. */
  const requireUser: onRequestHookHandler = async (request) => {
    const user = await lookupUser(request);
    if (!user) throw new AppError(401, accountMessages.notLoggedIn);
    if (!user.status) throw new AppError(403, accountMessages.accountDisabled);
    slots(request)[kUser] = user;
  };

  /** An enabled admin (a member token is no admin), else 401 / 403. */
  const resolveAdmin = async (request: FastifyRequest) => {
    const t = token(request);
    const admin = t ? await sessions.adminByToken(t) : null;
    if (!admin) throw new AppError(401, adminMessages.notLoggedIn);
    if (!admin.status) throw new AppError(403, adminMessages.accountDisabled);
    if (admin.mustChangePassword && request.routeOptions.config.beforePasswordChange !== true) {
      throw new AppError(403, adminMessages.mustChangePassword);
    }
    slots(request)[kAdmin] = admin;
    return admin;
  };

  /** `admin` routes: an enabled admin of either role. */
  const requireAdmin: onRequestHookHandler = async (request) => {
    await resolveAdmin(request);
  };

  /** `super` routes: an enabled 超级管理员; an editor gets 403 需要超级管理员权限. */
  const requireSuper: onRequestHookHandler = async (request) => {
    if ((await resolveAdmin(request)).role !== "super") throw new AppError(403, adminMessages.superOnly);
  };

  /** Public `optionalUser` routes: the enabled member or null; never refuses. */
  const identifyUser: onRequestHookHandler = async (request) => {
    const user = await lookupUser(request);
    slots(request)[kUser] = user?.status ? user : null;
  };

  return { requireUser, requireAdmin, requireSuper, identifyUser };
}

function routeName(request: FastifyRequest) {
  return `${request.method} ${request.routeOptions.url ?? request.url}`;
}

/**
 * Declares the access level of every route registered in `scope` (and its child scopes) that
 * does not declare its own. Call it first thing in a plugin registered without fastify-plugin,
 * so the scope is the plugin's own; on the root, or twice on one scope, it throws.
 */
export function declareAccess(scope: FastifyInstance, level: AccessLevel): void {
  if (!isAccessLevel(level)) throw new Error(`Unknown access level ${JSON.stringify(level)}`);
  const s = marks(scope);
  if (Object.hasOwn(s, kRoot) || Object.hasOwn(s, kGroupAccess)) {
    throw new Error(
      "declareAccess needs a scope of its own: call it inside a plugin registered without fastify-plugin (or use withAccess)",
    );
  }
  s[kGroupAccess] = level;
}

/**
 * A plugin (our own or a third party's, e.g. @fastify/swagger-ui) registered in a scope of its
 * own whose routes all get `level` unless they declare one:
 * `app.register(withAccess("public", swaggerUi), { routePrefix: "/api/docs" })`.
 */
export function withAccess<O extends FastifyPluginOptions>(
  level: AccessLevel,
  plugin: FastifyPluginAsync<O> | FastifyPluginCallback<O>,
): FastifyPluginAsync<O> {
  return async (scope, opts) => {
    declareAccess(scope, level);
    // The outer registration already applied the prefix to this scope; its children inherit it.
    const { prefix: _prefix, ...inner } = opts as O & { prefix?: string };
    await scope.register(plugin as FastifyPluginAsync<O>, inner as O);
  };
}

/**
 * The seam itself. Register it on the app before any route: its onRoute hook must see them all.
 */
export const authPlugin = fp<{ sessions: SessionLookup }>(
  async (app, { sessions }) => {
    // A route registered earlier would have escaped the hook below (and the route-access test).
    if (app.printRoutes() !== "(empty tree)") throw new Error("Register authPlugin before any route (ADR 0015)");
    marks(app)[kRoot] = true;
    const { requireUser, requireAdmin, requireSuper, identifyUser } = authGuards(sessions);
    const registry: RouteAccess[] = [];
    app.decorate("routeAccess", registry);

    app.decorateRequest(kUser, undefined);
    app.decorateRequest(kAdmin, undefined);
    app.decorateRequest("user", {
      getter(this: FastifyRequest) {
        const user = slots(this)[kUser];
        if (user === undefined) {
          throw new Error(
            `request.user is not resolved on ${routeName(this)}: declare access "user", or optionalUser: true on a public route`,
          );
        }
        return user;
      },
    });
    app.decorateRequest("admin", {
      getter(this: FastifyRequest) {
        const admin = slots(this)[kAdmin];
        if (admin === undefined) throw new Error(`request.admin is not resolved on ${routeName(this)}: declare access "admin" or "super"`);
        return admin;
      },
    });

    app.addHook("onRoute", function attachGuard(route) {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const name = `${methods.join(",")} ${route.url}`;
      const level = route.config?.access ?? marks(this)[kGroupAccess];
      if (level === undefined) {
        throw new Error(
          `Route ${name} declares no access level: give it config.access ("public", "user" or "admin") or register it in a group that declares one (ADR 0015)`,
        );
      }
      if (!isAccessLevel(level)) throw new Error(`Route ${name}: unknown access level ${JSON.stringify(level)}`);
      const optionalUser = route.config?.optionalUser === true;
      if (optionalUser && level !== "public") {
        throw new Error(`Route ${name}: optionalUser applies to public routes only (a ${level} route always has its account)`);
      }
      if (route.config?.beforePasswordChange === true && level !== "admin") {
        throw new Error(`Route ${name}: beforePasswordChange applies to "admin" routes only`);
      }

      // The resolved level travels with the route (request.routeOptions.config.access).
      route.config = { ...route.config, access: level };
      const guard =
        level === "user" ? requireUser : level === "admin" ? requireAdmin : level === "super" ? requireSuper : optionalUser ? identifyUser : null;
      if (guard) {
        const own = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
        route.onRequest = [guard, ...own];
        // The OpenAPI document says which calls take the token.
        if (route.schema && !route.schema.security) route.schema = { ...route.schema, security: [{ bearer: [] }] };
      }
      for (const method of methods) registry.push({ method, url: route.url, access: level, optionalUser });
    });
  },
  { name: "auth", fastify: "5.x" },
);
