import { eq, sql } from "drizzle-orm";
import { users } from "../../db/schema/index.js";
import { queryRows } from "../../db/sql.js";
import type { AppDatabase } from "../../db/types.js";
import type { TableQuery } from "../../http/admin-table.js";
import type { Executor } from "../catalogue-write/repo.js";

export type UserRecord = typeof users.$inferSelect;

export interface UserTableRow {
  id: number;
  username: string;
  email: string;
  nickname: string;
  coins: number;
  vip_until: number | null;
  status: number;
  createtime: number;
  downloads: number;
}

export interface UserDownloadRow {
  id: number;
  item_id: number;
  title: string;
  coins: number;
  createtime: number;
}

/** What an admin may change of a member (users are not catalogue rows: written here, not through `writes`). */
export interface UserChange {
  nickname?: string;
  email?: string;
  coins?: number;
  vipUntil?: Date | null;
  status?: number;
}

const TABLE_ROW = sql`select u.id, u.username, u.email, u.nickname, u.coins, u.status,
       extract(epoch from u.vip_until)::bigint::int as vip_until,
       extract(epoch from u.created_at)::bigint::int as createtime,
       (select count(*)::int from downloads d where d.user_id = u.id) as downloads
  from users u`;

/** SQL of the back office's members (issue 12). */
export function adminUserRepo(db: Executor) {
  return {
    async table(q: TableQuery): Promise<{ total: number; rows: UserTableRow[] }> {
      const [rows, [{ n }]] = await Promise.all([
        queryRows<UserTableRow>(db, sql`${TABLE_ROW} where ${q.where} order by ${q.orderBy} limit ${q.limit} offset ${q.offset}`),
        queryRows<{ n: number }>(db, sql`select count(*)::int as n from users u where ${q.where}`),
      ]);
      return { total: n, rows };
    },

    /** One member as a table row, or undefined. */
    async row(id: number): Promise<UserTableRow | undefined> {
      return (await queryRows<UserTableRow>(db, sql`${TABLE_ROW} where u.id = ${id}`))[0];
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
      const rows = await queryRows<{ id: number }>(
        db,
        sql`select id from users where id <> ${exceptId}
              and (lower(nickname) = ${name} or (nickname = '' and lower(username) = ${name})) limit 1`,
      );
      return rows.length > 0;
    },

    async emailTaken(email: string, exceptId: number): Promise<boolean> {
      const rows = await queryRows<{ id: number }>(db, sql`select id from users where id <> ${exceptId} and lower(email) = ${email.toLowerCase()} limit 1`);
      return rows.length > 0;
    },

    async downloads(userId: number, q: TableQuery): Promise<{ total: number; rows: UserDownloadRow[] }> {
      const where = sql`d.user_id = ${userId} and ${q.where}`;
      const [rows, [{ n }]] = await Promise.all([
        queryRows<UserDownloadRow>(
          db,
          sql`select d.id, d.item_id, coalesce(i.title, '') as title, d.coins_spent as coins,
                     extract(epoch from d.created_at)::bigint::int as createtime
                from downloads d left join items i on i.id = d.item_id
               where ${where} order by ${q.orderBy} limit ${q.limit} offset ${q.offset}`,
        ),
        queryRows<{ n: number }>(db, sql`select count(*)::int as n from downloads d left join items i on i.id = d.item_id where ${where}`),
      ]);
      return { total: n, rows };
    },
  };
}

export type { AppDatabase };
