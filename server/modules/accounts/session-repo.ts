import { and, eq, gt, isNotNull } from "drizzle-orm";
import type { AppDatabase } from "../../db/open.js";
import { sessions, users } from "../../db/schema/index.js";

export type UserRow = typeof users.$inferSelect;

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

    /** The member behind a live (unexpired) session, whatever the member's status. */
    async findUserByTokenHash(tokenHash: string, now: Date): Promise<UserRow | undefined> {
      const [row] = await db
        .select({ user: users })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, now), isNotNull(sessions.userId)))
        .limit(1);
      return row?.user;
    },

    async deleteByTokenHash(tokenHash: string): Promise<void> {
      await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
    },
  };
}
