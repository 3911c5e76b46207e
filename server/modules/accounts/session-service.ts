import { createHash, randomBytes } from "node:crypto";
import { DEFAULT_AVATAR, type SessionAdmin, type SessionUser } from "@contracts/accounts";
import type { AppDatabase } from "../../db/open.js";
import { type AdminRow, sessionRepo, type UserRow } from "./session-repo.js";

/** Members stay signed in for 30 days (the token lives in the browser's localStorage). */
export const USER_SESSION_TTL_MS = 30 * 24 * 3600 * 1000;
/** Back-office sessions are short: one working day (ADR 0015). */
export const ADMIN_SESSION_TTL_MS = 24 * 3600 * 1000;

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export function toSessionUser(user: UserRow): SessionUser {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    nickname: user.nickname || user.username,
    avatar: user.avatar || DEFAULT_AVATAR,
    bio: user.bio,
    createTime: Math.floor(user.createdAt.getTime() / 1000),
    status: user.status,
    coins: user.coins,
    vipUntil: user.vipUntil ? Math.floor(user.vipUntil.getTime() / 1000) : null,
  };
}

export function toSessionAdmin(admin: AdminRow): SessionAdmin {
  return {
    id: admin.id,
    username: admin.username,
    nickname: admin.nickname || admin.username,
    avatar: admin.avatar || DEFAULT_AVATAR,
    status: admin.status,
    role: admin.role,
    mustChangePassword: admin.mustChangePassword,
  };
}

interface SessionMeta {
  ip?: string;
  userAgent?: string;
}

/**
 * Login sessions of members and admins: opaque random tokens handed to the browser, looked up
 * by their hash. Who may call what (401/403) is decided by the auth seam (server/http/auth.ts),
 * which calls the lookups below once per request on the routes that need them.
 */
export function sessionService(db: AppDatabase, now: () => Date = () => new Date()) {
  const repo = sessionRepo(db);
  /** A new random token for `owner`; only its hash is stored. */
  async function create(owner: { userId: number } | { adminId: number }, ttlMs: number, meta: SessionMeta): Promise<string> {
    const token = randomBytes(32).toString("base64url");
    await repo.insert({ tokenHash: hashToken(token), ...owner, expiresAt: new Date(now().getTime() + ttlMs), ...meta });
    return token;
  }
  return {
    createUserSession: (userId: number, meta: SessionMeta = {}) => create({ userId }, USER_SESSION_TTL_MS, meta),
    createAdminSession: (adminId: number, meta: SessionMeta = {}) => create({ adminId }, ADMIN_SESSION_TTL_MS, meta),

    /** The member behind a live member token (any status: the caller refuses disabled ones), or null. */
    async userByToken(token: string): Promise<SessionUser | null> {
      const user = await repo.findUserByTokenHash(hashToken(token), now());
      return user ? toSessionUser(user) : null;
    },

    /** The admin behind a live admin token (any status), or null. A member token is null here. */
    async adminByToken(token: string): Promise<SessionAdmin | null> {
      const admin = await repo.findAdminByTokenHash(hashToken(token), now());
      return admin ? toSessionAdmin(admin) : null;
    },

    /**
     * The admin behind a live admin session named by its token's hash (the back office's menu
     * cookie, ADR 0078: the hash is no token, so it opens no API call), or null.
     */
    async adminByTokenHash(tokenHash: string): Promise<SessionAdmin | null> {
      const admin = await repo.findAdminByTokenHash(tokenHash, now());
      return admin ? toSessionAdmin(admin) : null;
    },

    /** Ends the member session behind the token; unknown tokens are already "logged out". */
    async logoutUser(token: string | undefined): Promise<void> {
      if (token) await repo.deleteByTokenHash(hashToken(token), "user");
    },

    /**
     * Ends every session of a member (a password reset), or all but the caller's own
     * (`except`: the hash of the token that asked: a password change keeps the person signed in).
     */
    async revokeUserSessions(userId: number, { except }: { except?: string } = {}): Promise<void> {
      await repo.deleteUserSessions(userId, except);
    },

    /** Ends the admin session behind the token. */
    async logoutAdmin(token: string | undefined): Promise<void> {
      if (token) await repo.deleteByTokenHash(hashToken(token), "admin");
    },

    /**
     * Deletes expired sessions, of members and admins alike (a session nobody logs out of stays a
     * row until then): run by the leader lease's holder now and then (server/main.ts).
     */
    deleteExpired: (): Promise<number> => repo.deleteExpired(now()),
  };
}

export type SessionService = ReturnType<typeof sessionService>;
