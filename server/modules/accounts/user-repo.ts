import { eq, or, sql } from "drizzle-orm";
import type { AppDatabase } from "../../db/open.js";
import { loginRecords, users } from "../../db/schema/index.js";
import type { UserRow } from "./session-repo.js";

export interface NewUser {
  username: string;
  email: string;
  passwordHash: string;
}

/** Which of a username and an email belongs to someone already (username first). */
export type TakenField = "username" | "email" | null;

/**
 * SQL for members' login and registration. Usernames and emails are unique without regard to
 * case (the `lower()` unique indexes); callers pass them trimmed, lookups lower-case them.
 */
export function userRepo(db: AppDatabase) {
  return {
    /** The member whose username or email is `account` in any letter case. */
    async findByAccount(account: string): Promise<UserRow | undefined> {
      const lowered = account.toLowerCase();
      const [row] = await db
        .select()
        .from(users)
        .where(or(eq(sql`lower(${users.username})`, lowered), eq(sql`lower(${users.email})`, lowered)))
        .limit(1);
      return row;
    },

    async findTaken(username: string, email: string): Promise<TakenField> {
      const rows = await db
        .select({ username: users.username, email: users.email })
        .from(users)
        .where(or(eq(sql`lower(${users.username})`, username.toLowerCase()), eq(sql`lower(${users.email})`, email.toLowerCase())))
        .limit(2);
      if (rows.some((r) => r.username.toLowerCase() === username.toLowerCase())) return "username";
      return rows.length > 0 ? "email" : null;
    },

    /**
     * Inserts the member unless the username or email is taken, in one statement: the unique
     * indexes decide, so of two simultaneous registrations of a name exactly one wins.
     * Undefined when a unique index refused the row.
     */
    async insertIfFree(user: NewUser): Promise<{ id: number } | undefined> {
      const [row] = await db.insert(users).values(user).onConflictDoNothing().returning({ id: users.id });
      return row;
    },

    async recordLogin(entry: { userId: number; ip: string; userAgent?: string }): Promise<void> {
      await db.insert(loginRecords).values({ userId: entry.userId, ip: entry.ip, userAgent: entry.userAgent, success: true });
    },
  };
}

export type UserRepo = ReturnType<typeof userRepo>;
