import { and, eq, ne, sql } from "drizzle-orm";
import { type AnyPgColumn, alias } from "drizzle-orm/pg-core";
import { downloads, users } from "../../db/schema/index.js";
import { type RowOf, scalar } from "../../db/sql.js";
import type { AppDatabase } from "../../db/types.js";
import type { TableQuery } from "../../http/admin-table.js";
import type { Executor } from "../catalogue-write/repo.js";
import { d, i, u } from "./table.js";

export type UserRecord = typeof users.$inferSelect;

export type UserTableRow = RowOf<typeof TABLE_ROW>;
export type UserDownloadRow = RowOf<typeof DOWNLOAD_ROW>;

/** What an admin may change of a member (users are not catalogue rows: written here, not through `writes`). */
export interface UserChange {
  nickname?: string;
  email?: string;
  coins?: number;
  vipUntil?: Date | null;
  status?: number;
}

const seconds = (column: AnyPgColumn) => sql<number>`extract(epoch from ${column})::bigint::int`;
const dd = alias(downloads, "dd");
const TABLE_ROW = {
  id: u.id,
  username: u.username,
  email: u.email,
  nickname: u.nickname,
  coins: u.coins,
  status: u.status,
  vip_until: sql<number | null>`${seconds(u.vipUntil)}`,
  createtime: seconds(u.createdAt),
  downloads: scalar<number>(sql`select count(*)::int from ${downloads} ${dd} where ${dd.userId} = ${u.id}`),
};
const DOWNLOAD_ROW = { id: d.id, item_id: d.itemId, title: sql<string>`coalesce(${i.title}, '')`, coins: d.coinsSpent, createtime: seconds(d.createdAt) };
const count = sql<number>`count(*)::int`;

/** SQL of the back office's members (issue 12). */
export function adminUserRepo(db: Executor) {
  /** One page of the back office's table. */
  const page = (q: TableQuery): Promise<UserTableRow[]> => db.select(TABLE_ROW).from(u).where(q.where).orderBy(q.orderBy).limit(q.limit).offset(q.offset);
  return {
    page,

    async table(q: TableQuery): Promise<{ total: number; rows: UserTableRow[] }> {
      const [rows, [counted]] = await Promise.all([
        page(q),
        db.select({ n: count }).from(u).where(q.where),
      ]);
      return { total: counted!.n, rows };
    },

    /** One member as a table row, or undefined. */
    async row(id: number): Promise<UserTableRow | undefined> {
      return (await db.select(TABLE_ROW).from(u).where(eq(u.id, id)))[0];
    },

    /** The member, locked until the transaction ends (two admins editing take turns). */
    async lock(id: number): Promise<UserRecord | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).for("update");
      return row;
    },

    async update(id: number, change: UserChange): Promise<UserRecord> {
      const [row] = await db.update(users).set({ ...change, updatedAt: sql`now()` }).where(eq(users.id, id)).returning();
      return row!;
    },

    /** Another member already shows this name (nickname, or username when no nickname), any case. */
    async nicknameTaken(nickname: string, exceptId: number): Promise<boolean> {
      const name = nickname.toLowerCase();
      const rows = await db
        .select({ id: users.id })
        .from(users)
        .where(and(ne(users.id, exceptId), sql`(lower(${users.nickname}) = ${name} or (${users.nickname} = '' and lower(${users.username}) = ${name}))`))
        .limit(1);
      return rows.length > 0;
    },

    async emailTaken(email: string, exceptId: number): Promise<boolean> {
      const rows = await db
        .select({ id: users.id })
        .from(users)
        .where(and(ne(users.id, exceptId), sql`lower(${users.email}) = ${email.toLowerCase()}`))
        .limit(1);
      return rows.length > 0;
    },

    async downloads(userId: number, q: TableQuery): Promise<{ total: number; rows: UserDownloadRow[] }> {
      const where = and(eq(d.userId, userId), q.where);
      const [rows, [counted]] = await Promise.all([
        db
          .select(DOWNLOAD_ROW)
          .from(d)
          .leftJoin(i, eq(i.id, d.itemId))
          .where(where)
          .orderBy(q.orderBy)
          .limit(q.limit)
          .offset(q.offset),
        db.select({ n: count }).from(d).leftJoin(i, eq(i.id, d.itemId)).where(where),
      ]);
      return { total: counted!.n, rows };
    },
  };
}

export type { AppDatabase };
