import { createHash, randomBytes } from "node:crypto";
import { accountMessages, DEFAULT_AVATAR, type SessionUser } from "@contracts/accounts";
import type { AppDatabase } from "../../db/open.js";
import { AppError } from "../../errors.js";
import { sessionRepo, type UserRow } from "./session-repo.js";

/** Members stay signed in for 30 days (the token lives in the browser's localStorage). */
export const USER_SESSION_TTL_MS = 30 * 24 * 3600 * 1000;

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
  };
}

/** Member sessions: opaque random tokens handed to the browser, looked up by their hash. */
export function sessionService(db: AppDatabase, now: () => Date = () => new Date()) {
  const repo = sessionRepo(db);
  return {
    async createUserSession(userId: number, meta: { ip?: string; userAgent?: string } = {}): Promise<string> {
      const token = randomBytes(32).toString("base64url");
      const expiresAt = new Date(now().getTime() + USER_SESSION_TTL_MS);
      await repo.insert({ tokenHash: hashToken(token), userId, expiresAt, ...meta });
      return token;
    },

    /** The signed-in member, or 401 请先登录 (no/unknown/expired token) / 403 账号已被禁用. */
    async currentUser(token: string | undefined): Promise<SessionUser> {
      if (!token) throw new AppError(401, accountMessages.notLoggedIn);
      const user = await repo.findUserByTokenHash(hashToken(token), now());
      if (!user) throw new AppError(401, accountMessages.notLoggedIn);
      if (!user.status) throw new AppError(403, accountMessages.accountDisabled);
      return toSessionUser(user);
    },

    /** Ends the session behind the token; unknown tokens are already "logged out". */
    async logout(token: string | undefined): Promise<void> {
      if (token) await repo.deleteByTokenHash(hashToken(token));
    },
  };
}
