import type { AdminCommentRow } from "@contracts/admin-people-texts";
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/sql.js";
import type { TableQuery } from "../../http/admin-table.js";
import type { Executor } from "../catalogue-write/repo.js";

/** A comments-table row as the query reads it (the service adds `status_text`). */
export type CommentTableRow = Omit<AdminCommentRow, "status_text">;

/** A comment as a change touches it. */
export interface CommentRecord {
  id: number;
  item_id: number;
  user_id: number;
  status: "normal" | "hidden";
  content: string;
}

const FROM = sql`from comments c join users u on u.id = c.user_id join items i on i.id = c.item_id`;

/** SQL of the back office's comments (issue 12). Item counters move through the write service. */
export function adminCommentRepo(db: Executor) {
  return {
    async table(q: TableQuery): Promise<{ total: number; rows: CommentTableRow[] }> {
      const [rows, [{ n }]] = await Promise.all([
        queryRows<CommentTableRow>(
          db,
          sql`select c.id, c.item_id, i.title as item_title, c.user_id, u.username, u.nickname, c.parent_id, c.content, c.status,
                     extract(epoch from c.created_at)::bigint::int as createtime
                ${FROM} where ${q.where} order by ${q.orderBy} limit ${q.limit} offset ${q.offset}`,
        ),
        queryRows<{ n: number }>(db, sql`select count(*)::int as n ${FROM} where ${q.where}`),
      ]);
      return { total: n, rows };
    },

    /** The comments, locked until the transaction ends, in id order. */
    async lock(ids: readonly number[]): Promise<CommentRecord[]> {
      if (ids.length === 0) return [];
      return queryRows<CommentRecord>(
        db,
        sql`select id, item_id, user_id, status, content from comments
             where id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)}) order by id for update`,
      );
    },

    async setStatus(ids: readonly number[], status: "normal" | "hidden"): Promise<void> {
      if (ids.length === 0) return;
      await db.execute(sql`update comments set status = ${status}, updated_at = now() where id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`);
    },

    /**
     * Deletes the comments and their replies (the foreign key cascades); answers, per item, how
     * many visible comments went, so the item's counter drops by exactly that.
     */
    async deleteWithReplies(ids: readonly number[]): Promise<Map<number, number>> {
      const gone = new Map<number, number>();
      if (ids.length === 0) return gone;
      const list = sql.join(ids.map((id) => sql`${id}`), sql`, `);
      const rows = await queryRows<{ item_id: number; n: number }>(
        db,
        sql`with recursive tree as (
              select id, item_id, status from comments where id in (${list})
              union
              select c.id, c.item_id, c.status from comments c join tree t on c.parent_id = t.id
            )
            select item_id, count(*)::int as n from (select distinct id, item_id, status from tree) x
             where status = 'normal' group by item_id`,
      );
      for (const r of rows) gone.set(r.item_id, r.n);
      await db.execute(sql`delete from comments where id in (${list})`);
      return gone;
    },
  };
}
