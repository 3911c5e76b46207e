import type { AccountCheck } from "../session/api";
import type { AdminInfo, SessionUser } from "../session/store";

type StorageLike = Pick<Storage, "getItem" | "setItem" | "removeItem">;

/** Everything a guard touches, injected so the rules are testable without a browser. */
export interface GuardDeps {
  /** Where tokens live (localStorage). */
  tokens: StorageLike;
  /** Where the wanted address waits during login (sessionStorage). */
  pending: Pick<Storage, "setItem">;
  api: { currentUser: AccountCheck<SessionUser>; currentAdmin: AccountCheck<AdminInfo> };
  session: {
    getUser(): SessionUser | null;
    setUser(user: SessionUser | null): void;
    getAdmin(): AdminInfo | null;
    setAdmin(admin: AdminInfo | null): void;
  };
}

export interface GuardContext {
  /** The address being opened (path + search + hash). */
  to: string;
  deps: GuardDeps;
}

/** null lets the page render; otherwise go elsewhere. */
export type GuardResult = { redirect: string } | null;

export type Guard = (ctx: GuardContext) => Promise<GuardResult>;

/**
 * Pages' access is declared in contracts/access.ts; a route module may add a guard of its own
 * with `export const handle = { middleware: ['name'] }`.
 */
export interface RouteHandle {
  middleware?: readonly string[];
  /** The suite detail page has its own controls: the global player bar is hidden there. */
  hidePlayer?: boolean;
}
