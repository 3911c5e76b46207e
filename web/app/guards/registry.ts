import { pageOf } from "@contracts/access";
import { RouteHttpError } from "../lib/http-error";
import { LOGIN_REDIRECT_KEY, TOKEN_KEY } from "../session/keys";
import { loadAdmin, loadUser } from "./accounts";
import type { Guard, GuardContext, GuardResult, RouteHandle } from "./types";

const PASS: GuardResult = null;

/** /user/*: a guest goes to /login; the stale token is dropped and the wanted address kept. */
export const auth: Guard = async ({ to, deps }) => {
  if (await loadUser(deps)) return PASS;
  deps.tokens.removeItem(TOKEN_KEY);
  deps.pending.setItem(LOGIN_REDIRECT_KEY, to);
  return { redirect: "/login" };
};

/** /login, /forgot-password: a logged-in user goes to the profile. */
export const guest: Guard = async ({ deps }) => {
  const hadToken = deps.tokens.getItem(TOKEN_KEY) !== null;
  if (await loadUser(deps)) return { redirect: "/user/profile" };
  if (hadToken) deps.tokens.removeItem(TOKEN_KEY);
  return PASS;
};

/** /panda/* except the admin login: checks the admin login. */
export const admin: Guard = async ({ deps }) =>
  (await loadAdmin(deps)) ? PASS : { redirect: "/panda/login" };

/** /panda/login is for guests only (spec section 6): a logged-in admin goes to the dashboard. */
export const adminGuest: Guard = async ({ deps }) =>
  (await loadAdmin(deps)) ? { redirect: "/panda/" } : PASS;

export const guards: Readonly<Record<string, Guard>> = { auth, guest, admin, adminGuest };

/**
 * The guard a page's declared access needs (contracts/access.ts): the pages declare who may open
 * them once, with the server; no route module repeats it.
 */
export function pageMiddleware(pathname: string): string[] {
  const page = pageOf(pathname);
  if (!page) return [];
  if (page.guestsOf) return [page.guestsOf === "admin" ? "adminGuest" : "guest"];
  if (page.access === "user") return ["auth"];
  // A super page needs the admin login here; the admin layout shows an editor 需要超级管理员权限.
  if (page.access === "admin" || page.access === "super") return ["admin"];
  return [];
}

/**
 * The page's guard, then any middleware the matched routes add in `handle.middleware`
 * (outermost first), each once.
 */
export function collectMiddleware(matches: readonly { handle?: unknown }[], pathname = ""): string[] {
  const names = matches.flatMap((m) => (m.handle as RouteHandle | undefined)?.middleware ?? []);
  return [...new Set([...pageMiddleware(pathname), ...names])];
}

/** The guards for these names; an unknown name is a 500 'Unknown middleware {name}'. */
export function resolveGuards(names: readonly string[]): Guard[] {
  return names.map((name) => {
    const guard = Object.hasOwn(guards, name) ? guards[name] : undefined;
    if (!guard) throw new RouteHttpError(500, `Unknown middleware ${name}`);
    return guard;
  });
}

/** Runs guards in order; the first redirect wins. */
export async function runGuards(list: readonly Guard[], ctx: GuardContext): Promise<GuardResult> {
  for (const guard of list) {
    const result = await guard(ctx);
    if (result) return result;
  }
  return PASS;
}
