import { and, eq, gt, isNotNull, lte, ne } from "drizzle-orm";
import type { AppDatabase } from "../../db/open.js";
import { admins, sessions, users } from "../../db/schema/index.js";

export type UserRow = typeof users.$inferSelect;
export type AdminRow = typeof admins.$inferSelect;

export interface NewSessionRow {
  tokenHash: string;
  userId?: number;
  adminId?: number;
  expiresAt: Date;
  ip?: string;
  userAgent?: string;
}

/** SQL for login sessions: only token hashes are stored. */
export function sessionRepo(db: AppDatabase) {
  return {
    async insert(row: NewSessionRow): Promise<void> {
      await db.insert(sessions).values(row);
    },

    /** The member behind a live (unexpired) member session, whatever the member's status. */
    async findUserByTokenHash(tokenHash: string, now: Date): Promise<UserRow | undefined> {
      const [row] = await db
        .select({ user: users })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, now), isNotNull(sessions.userId)))
        .limit(1);
      return row?.user;
    },

    /** The admin behind a live admin session, whatever the admin's status. A member's session never matches. */
    async findAdminByTokenHash(tokenHash: string, now: Date): Promise<AdminRow | undefined> {
      const [row] = await db
        .select({ admin: admins })
        .from(sessions)
        .innerJoin(admins, eq(admins.id, sessions.adminId))
        .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, now), isNotNull(sessions.adminId)))
        .limit(1);
      return row?.admin;
    },

    /** Ends a session of the given kind: a member token never ends an admin session, nor the reverse. */
    async deleteByTokenHash(tokenHash: string, owner: "user" | "admin"): Promise<void> {
      const ownerColumn = owner === "user" ? sessions.userId : sessions.adminId;
      await db.delete(sessions).where(and(eq(sessions.tokenHash, tokenHash), isNotNull(ownerColumn)));
    },

    /** Deletes sessions that expired at `now` or before (every lookup ignores them already); how many. */
    async deleteExpired(now: Date): Promise<number> {
      const gone = await db.delete(sessions).where(lte(sessions.expiresAt, now)).returning({ id: sessions.id });
      return gone.length;
    },

    /** Ends every session of a member, except the one whose hash is given (the caller's own). */
    async deleteUserSessions(userId: number, exceptTokenHash?: string): Promise<void> {
      const mine = eq(sessions.userId, userId);
      await db.delete(sessions).where(exceptTokenHash ? and(mine, ne(sessions.tokenHash, exceptTokenHash)) : mine);
    },
  };
}
