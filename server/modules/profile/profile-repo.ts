import { and, eq, ne, or, sql } from "drizzle-orm";
import type { AppDatabase } from "../../db/types.js";
import { users } from "../../db/schema/index.js";
import { selectRows } from "../../db/sql.js";
import type { UserRow } from "../accounts/session-repo.js";
import { alias } from "drizzle-orm/pg-core";

/** The row as it was before the update (the subquery's alias). */
const old = alias(users, "old");

/** A unique index refused the write (PostgreSQL 23505), whichever driver or wrapper raised it. */
export function isUniqueViolation(err: unknown): boolean {
  for (let e = err as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === "23505") return true;
  }
  return false;
}

const lower = (s: string) => s.trim().toLowerCase();

/** SQL of the member's own account row: profile, password, email, avatar. */
export function profileRepo(db: AppDatabase) {
  return {
    async byId(id: number): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },

    /** The member with this address, in any letter case and without surrounding spaces. */
    async byEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(sql`lower(${users.email}) = ${lower(email)}`).limit(1);
      return row;
    },

    /**
     * Whether another member already shows this name: their nickname, or their username when
     * they have no nickname (what the site displays for them), in any letter case.
     */
    async nicknameTaken(nickname: string, exceptId: number): Promise<boolean> {
      const name = lower(nickname);
      const [row] = await db
        .select({ id: users.id })
        .from(users)
        .where(
          and(
            ne(users.id, exceptId),
            or(sql`lower(${users.nickname}) = ${name}`, and(eq(users.nickname, ""), sql`lower(${users.username}) = ${name}`)),
          ),
        )
        .limit(1);
      return row !== undefined;
    },

    async updateProfile(id: number, patch: { nickname: string; bio: string }): Promise<UserRow | undefined> {
      const [row] = await db.update(users).set(patch).where(eq(users.id, id)).returning();
      return row;
    },

    async setPasswordHash(id: number, passwordHash: string): Promise<void> {
      await db.update(users).set({ passwordHash }).where(eq(users.id, id));
    },

    /** Throws a unique violation when another member took the address meanwhile. */
    async setEmail(id: number, email: string): Promise<UserRow | undefined> {
      const [row] = await db.update(users).set({ email }).where(eq(users.id, id)).returning();
      return row;
    },

    /** Sets the avatar and answers the one it replaced, in one statement (row-locked). */
    async swapAvatar(id: number, url: string): Promise<{ previous: string | null } | undefined> {
      // Raw (an UPDATE … FROM a locked subquery answering the old value); typed from the schema.
      const [row] = await selectRows(db, { previous: old.avatar }, (fields) =>
        sql`update ${users} set avatar = ${url}, updated_at = now()
            from (select id, avatar from ${users} where id = ${id} for update) as ${old}
            where ${users.id} = ${old.id}
            returning ${fields}`,
      );
      return row;
    },
  };
}

export type ProfileRepo = ReturnType<typeof profileRepo>;
