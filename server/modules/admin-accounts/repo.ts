import { and, eq, ne, sql } from "drizzle-orm";
import type { AppDatabase } from "../../db/types.js";
import { admins, loginRecords, sessions } from "../../db/schema/index.js";
import type { RowOf } from "../../db/sql.js";
import type { TableQuery } from "../../http/admin-table.js";

export type AdminRecord = typeof admins.$inferSelect;
export type AdminRole = AdminRecord["role"];

/** What the admins table selects (no password hash). */
const TABLE_ROW = {
  id: admins.id,
  username: admins.username,
  nickname: admins.nickname,
  role: admins.role,
  status: admins.status,
  last_login: sql<number | null>`extract(epoch from ${admins.lastLoginAt})::int`,
  createtime: sql<number>`extract(epoch from ${admins.createdAt})::int`,
};
export type AdminTableRow = RowOf<typeof TABLE_ROW>;

/** What an audit row keeps of an admin: never the password hash. */
export const adminSnapshot = (a: Pick<AdminRecord, "id" | "username" | "nickname" | "role" | "status">) => ({
  id: a.id,
  username: a.username,
  nickname: a.nickname,
  role: a.role,
  status: a.status,
});

/** SQL of the back office's admin accounts, their sessions and login records. `db` may be a transaction. */
export function adminRepo(db: AppDatabase) {
  return {
    async findByUsername(username: string): Promise<AdminRecord | undefined> {
      const [row] = await db.select().from(admins).where(sql`lower(${admins.username}) = ${username.trim().toLowerCase()}`).limit(1);
      return row;
    },

    async findById(id: number): Promise<AdminRecord | undefined> {
      const [row] = await db.select().from(admins).where(eq(admins.id, id)).limit(1);
      return row;
    },

    /** The admin's row, locked until the transaction ends. */
    async lock(id: number): Promise<AdminRecord | undefined> {
      const [row] = await db.select().from(admins).where(eq(admins.id, id)).for("update").limit(1);
      return row;
    },

    /**
     * The enabled 超级管理员, locked: two supers disabling (or demoting) each other at once wait
     * for one another, so the last one always stays.
     */
    async lockEnabledSupers(): Promise<number[]> {
      const rows = await db
        .select({ id: admins.id })
        .from(admins)
        .where(and(eq(admins.role, "super"), eq(admins.status, 1)))
        .orderBy(admins.id)
        .for("update");
      return rows.map((r) => r.id);
    },

    /** A new admin, or undefined when the name (any letter case) is taken. */
    async insertIfFree(row: { username: string; passwordHash: string; nickname: string; role: AdminRole }): Promise<AdminRecord | undefined> {
      const [created] = await db.insert(admins).values(row).onConflictDoNothing().returning();
      return created;
    },

    async update(id: number, patch: Partial<Pick<AdminRecord, "nickname" | "role" | "status" | "passwordHash" | "mustChangePassword" | "lastLoginAt">>): Promise<AdminRecord | undefined> {
      const [row] = await db.update(admins).set({ ...patch, updatedAt: new Date() }).where(eq(admins.id, id)).returning();
      return row;
    },

    /** Ends every session of an admin, except the one whose token hash is given (the caller's own). */
    async deleteSessions(adminId: number, exceptTokenHash?: string): Promise<void> {
      const theirs = eq(sessions.adminId, adminId);
      await db.delete(sessions).where(exceptTokenHash ? and(theirs, ne(sessions.tokenHash, exceptTokenHash)) : theirs);
    },

    async recordLogin(row: { adminId: number; ip: string; location: string; userAgent?: string; success: boolean }): Promise<void> {
      await db.insert(loginRecords).values(row);
    },

    /** A page of the admins table and the count of all rows that match. */
    async table(q: TableQuery): Promise<{ total: number; rows: AdminTableRow[] }> {
      const [rows, [count]] = await Promise.all([
        db.select(TABLE_ROW).from(admins).where(q.where).orderBy(q.orderBy).limit(q.limit).offset(q.offset),
        db.select({ n: sql<number>`count(*)::int` }).from(admins).where(q.where),
      ]);
      return { total: count?.n ?? 0, rows };
    },
  };
}

export type AdminRepo = ReturnType<typeof adminRepo>;
