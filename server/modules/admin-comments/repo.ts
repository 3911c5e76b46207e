import type { AdminCommentRow } from "@contracts/admin-people-texts";
import { eq, inArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { comments } from "../../db/schema/index.js";
import { type RowOf, selectRows } from "../../db/sql.js";
import type { TableQuery } from "../../http/admin-table.js";
import type { Executor } from "../catalogue-write/repo.js";
import { c, i, u } from "./table.js";

/** A comments-table row as the query reads it (the service adds `status_text`). */
export type CommentTableRow = Omit<AdminCommentRow, "status_text">;

/** A comment as a change touches it. */
const RECORD = { id: comments.id, item_id: comments.itemId, user_id: comments.userId, status: comments.status, content: comments.content };
export type CommentRecord = RowOf<typeof RECORD>;

const TABLE_ROW = {
  id: c.id,
  item_id: c.itemId,
  item_title: i.title,
  user_id: c.userId,
  username: u.username,
  nickname: u.nickname,
  parent_id: c.parentId,
  content: c.content,
  status: c.status,
  createtime: sql<number>`extract(epoch from ${c.createdAt})::bigint::int`,
};
const onUser = eq(u.id, c.userId);
const onItem = eq(i.id, c.itemId);
/** The recursive CTE's rows, read under the alias `x` (its shape is the table's). */
const x = alias(comments, "x");

/** SQL of the back office's comments (issue 12). Item counters move through the write service. */
export function adminCommentRepo(db: Executor) {
  return {
    async table(q: TableQuery): Promise<{ total: number; rows: CommentTableRow[] }> {
      const [rows, [counted]] = await Promise.all([
        db.select(TABLE_ROW).from(c).innerJoin(u, onUser).innerJoin(i, onItem).where(q.where).orderBy(q.orderBy).limit(q.limit).offset(q.offset),
        db.select({ n: sql<number>`count(*)::int` }).from(c).innerJoin(u, onUser).innerJoin(i, onItem).where(q.where),
      ]);
      return { total: counted!.n, rows };
    },

    /** The comments, locked until the transaction ends, in id order. */
    async lock(ids: readonly number[]): Promise<CommentRecord[]> {
      if (ids.length === 0) return [];
      return db.select(RECORD).from(comments).where(inArray(comments.id, [...ids])).orderBy(comments.id).for("update");
    },

    async setStatus(ids: readonly number[], status: "normal" | "hidden"): Promise<void> {
      if (ids.length === 0) return;
      await db.update(comments).set({ status, updatedAt: sql`now()` }).where(inArray(comments.id, [...ids]));
    },

    /**
     * Deletes the comments and their replies (the foreign key cascades); answers, per item, how
     * many visible comments went, so the item's counter drops by exactly that.
     */
    async deleteWithReplies(ids: readonly number[]): Promise<Map<number, number>> {
      const gone = new Map<number, number>();
      if (ids.length === 0) return gone;
      const list = sql.join(ids.map((id) => sql`${id}`), sql`, `);
      // A recursive CTE: raw, its row type from the schema (the builder has no `with recursive`).
      const rows = await selectRows(db, { item_id: x.itemId, n: sql<number>`count(*)::int` }, (fields) =>
        sql`with recursive tree as (
              select id, item_id, status from comments where id in (${list})
              union
              select c.id, c.item_id, c.status from comments c join tree t on c.parent_id = t.id
            )
            select ${fields} from (select distinct id, item_id, status from tree) ${x}
             where ${x.status} = 'normal' group by ${x.itemId}`,
      );
      for (const r of rows) gone.set(r.item_id, r.n);
      await db.delete(comments).where(inArray(comments.id, [...ids]));
      return gone;
    },
  };
}
