import { describe, expect, it, vi } from "vitest";
import { RouteHttpError } from "../lib/http-error";
import { ADMIN_TOKEN_KEY, LOGIN_REDIRECT_KEY, TOKEN_KEY } from "../session/keys";
import type { AdminInfo, SessionUser } from "../session/store";
import { checkSession } from "./accounts";
import {
  admin,
  adminGuest,
  auth,
  collectMiddleware,
  guest,
  resolveGuards,
  runGuards,
} from "./registry";
import type { GuardDeps } from "./types";

const USER: SessionUser = {
  id: 7,
  username: "dj",
  email: "dj@example.cn",
  coins: 0,
  vipUntil: null,
  nickname: "dj",
  avatar: "/img/noimage.png",
  bio: "",
  createTime: 1_790_000_000,
  status: 1,
};
const ADMIN: AdminInfo = { username: "admin" };

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  };
}

function setup(
  opts: {
    tokens?: Record<string, string>;
    user?: SessionUser | null;
    admin?: AdminInfo | null;
    currentUser?: (token: string) => Promise<SessionUser | null>;
    currentAdmin?: (token: string) => Promise<AdminInfo | null>;
  } = {},
) {
  const tokens = memoryStorage(opts.tokens);
  const pending = memoryStorage();
  const state = { user: opts.user ?? null, admin: opts.admin ?? null };
  const currentUser = vi.fn(opts.currentUser ?? (async () => null));
  const currentAdmin = vi.fn(opts.currentAdmin ?? (async () => null));
  const deps: GuardDeps = {
    tokens,
    pending,
    api: { currentUser, currentAdmin },
    session: {
      getUser: () => state.user,
      setUser: (u) => void (state.user = u),
      getAdmin: () => state.admin,
      setAdmin: (a) => void (state.admin = a),
    },
  };
  return { deps, tokens, pending, state, currentUser, currentAdmin };
}

describe("auth guard", () => {
  it("lets a known user through without asking the server", async () => {
    const t = setup({ user: USER });
    expect(await auth({ to: "/user/profile", deps: t.deps })).toBeNull();
    expect(t.currentUser).not.toHaveBeenCalled();
  });

  it("loads the user with the stored token and keeps it", async () => {
    const t = setup({ tokens: { [TOKEN_KEY]: "tok" }, currentUser: async () => USER });
    expect(await auth({ to: "/user/profile", deps: t.deps })).toBeNull();
    expect(t.currentUser).toHaveBeenCalledWith("tok");
    expect(t.state.user).toEqual(USER);
  });

  it("on a rejected token: removes it, saves the target, redirects to /login", async () => {
    const t = setup({ tokens: { [TOKEN_KEY]: "bad" } });
    expect(await auth({ to: "/user/favorites?page=2", deps: t.deps })).toEqual({
      redirect: "/login",
    });
    expect(t.tokens.data.has(TOKEN_KEY)).toBe(false);
    expect(t.pending.data.get(LOGIN_REDIRECT_KEY)).toBe("/user/favorites?page=2");
  });

  it("treats a network failure as not logged in", async () => {
    const t = setup({
      tokens: { [TOKEN_KEY]: "tok" },
      currentUser: async () => {
        throw new TypeError("Failed to fetch");
      },
    });
    expect(await auth({ to: "/user/downloads", deps: t.deps })).toEqual({ redirect: "/login" });
    expect(t.tokens.data.has(TOKEN_KEY)).toBe(false);
  });

  it("a guest without a token is redirected without any request", async () => {
    const t = setup();
    expect(await auth({ to: "/user/profile", deps: t.deps })).toEqual({ redirect: "/login" });
    expect(t.currentUser).not.toHaveBeenCalled();
  });
});

describe("guest guard", () => {
  it("sends a logged-in user to the profile", async () => {
    const t = setup({ user: USER });
    expect(await guest({ to: "/login", deps: t.deps })).toEqual({ redirect: "/user/profile" });
  });

  it("sends a user with a valid token to the profile", async () => {
    const t = setup({ tokens: { [TOKEN_KEY]: "tok" }, currentUser: async () => USER });
    expect(await guest({ to: "/login", deps: t.deps })).toEqual({ redirect: "/user/profile" });
  });

  it("lets a guest in and drops a stale token", async () => {
    const t = setup({ tokens: { [TOKEN_KEY]: "stale" } });
    expect(await guest({ to: "/login", deps: t.deps })).toBeNull();
    expect(t.tokens.data.has(TOKEN_KEY)).toBe(false);
  });
});

describe("admin guards", () => {
  it("without an admin token: to /panda/login, no request", async () => {
    const t = setup();
    expect(await admin({ to: "/panda/", deps: t.deps })).toEqual({ redirect: "/panda/login" });
    expect(t.currentAdmin).not.toHaveBeenCalled();
  });

  it("a confirmed admin token passes and the admin info is kept", async () => {
    const t = setup({ tokens: { [ADMIN_TOKEN_KEY]: "a" }, currentAdmin: async () => ADMIN });
    expect(await admin({ to: "/panda/block", deps: t.deps })).toBeNull();
    expect(t.state.admin).toEqual(ADMIN);
  });

  it("a rejected admin token is removed; a network error keeps it but still refuses", async () => {
    const rejected = setup({ tokens: { [ADMIN_TOKEN_KEY]: "a" } });
    expect(await admin({ to: "/panda/", deps: rejected.deps })).toEqual({
      redirect: "/panda/login",
    });
    expect(rejected.tokens.data.has(ADMIN_TOKEN_KEY)).toBe(false);

    const offline = setup({
      tokens: { [ADMIN_TOKEN_KEY]: "a" },
      currentAdmin: async () => {
        throw new TypeError("Failed to fetch");
      },
    });
    expect(await admin({ to: "/panda/", deps: offline.deps })).toEqual({
      redirect: "/panda/login",
    });
    expect(offline.tokens.data.get(ADMIN_TOKEN_KEY)).toBe("a");
  });

  it("the admin login page sends a logged-in admin to /panda/", async () => {
    expect(await adminGuest({ to: "/panda/login", deps: setup({ admin: ADMIN }).deps })).toEqual({
      redirect: "/panda/",
    });
    expect(await adminGuest({ to: "/panda/login", deps: setup().deps })).toBeNull();
  });
});

describe("registry", () => {
  it("collects declared middleware from matched routes, outermost first, once each", () => {
    const matches = [
      { handle: undefined },
      { handle: { middleware: ["auth"] } },
      { handle: { hidePlayer: true } },
      { handle: { middleware: ["auth", "guest"] } },
    ];
    expect(collectMiddleware(matches)).toEqual(["auth", "guest"]);
  });

  it("an unknown middleware is a 500 'Unknown middleware {name}'", () => {
    const thrown = (names: string[]) => {
      try {
        resolveGuards(names);
      } catch (error) {
        return error;
      }
      return null;
    };
    expect(thrown(["auth", "vip"])).toBeInstanceOf(RouteHttpError);
    expect(thrown(["vip"])).toMatchObject({ status: 500, data: "Unknown middleware vip" });
    // Names of Object.prototype are not guards either.
    expect(thrown(["toString"])).toMatchObject({ data: "Unknown middleware toString" });
    expect(thrown(["auth", "guest", "admin", "adminGuest"])).toBeNull();
  });

  it("runs guards in order and stops at the first redirect", async () => {
    const t = setup({ user: USER });
    const [g, a] = resolveGuards(["guest", "auth"]);
    expect(await runGuards([g, a], { to: "/login", deps: t.deps })).toEqual({
      redirect: "/user/profile",
    });
    expect(await runGuards([a], { to: "/user/profile", deps: t.deps })).toBeNull();
  });
});

describe("navbar session check", () => {
  it("a non-success answer clears the user info", async () => {
    const t = setup({ tokens: { [TOKEN_KEY]: "tok" }, user: USER });
    await checkSession(t.deps);
    expect(t.state.user).toBeNull();
  });

  it("a success answer refreshes it; no token means nobody, without a request", async () => {
    const ok = setup({ tokens: { [TOKEN_KEY]: "tok" }, currentUser: async () => USER });
    await checkSession(ok.deps);
    expect(ok.state.user).toEqual(USER);

    const none = setup({ user: USER });
    await checkSession(none.deps);
    expect(none.state.user).toBeNull();
    expect(none.currentUser).not.toHaveBeenCalled();
  });

  it("a network error keeps what is known", async () => {
    const t = setup({
      tokens: { [TOKEN_KEY]: "tok" },
      user: USER,
      currentUser: async () => {
        throw new TypeError("Failed to fetch");
      },
    });
    await checkSession(t.deps);
    expect(t.state.user).toEqual(USER);
  });
});
