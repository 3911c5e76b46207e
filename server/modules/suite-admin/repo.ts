import { type SQL, sql } from "drizzle-orm";
import { queryRows } from "../../db/sql.js";
import type { AppDatabase } from "../../db/types.js";
import type { TableQuery } from "../../http/admin-table.js";
import type { ItemKind } from "../../db/schema/index.js";

/** One row of the suite table as selected (times as Unix seconds). */
export interface SuiteTableRecord {
  id: number;
  kind: ItemKind;
  category_id: number | null;
  title: string;
  cover: string | null;
  price: number;
  views: number;
  comments: number;
  createtime: number;
  updatetime: number;
  publishtime: number;
  status: "normal" | "hidden";
  channel_name: string | null;
  channel_diyname: string | null;
}

/** What an audit row keeps of a deleted or re-statused suite. */
export interface SuiteSnapshot {
  id: number;
  kind: ItemKind;
  title: string;
  categoryId: number | null;
  status: "normal" | "hidden";
  playUrl: string;
  sourceSite: string;
  sourceId: string | null;
  publishedAt: string;
}

export function suiteAdminRepo(db: AppDatabase) {
  return {
    /**
     * A page of one kind's items and the count of all that match. The order starts with the
     * kind (one value here) in the page's direction, so PostgreSQL walks the (kind, …) index
     * instead of the primary key, which it would otherwise prefer and filter row by row.
     */
    async table(kind: ItemKind, q: TableQuery, descending: boolean): Promise<{ total: number; rows: SuiteTableRecord[] }> {
      const where: SQL = sql`i.kind = ${kind} and ${q.where}`;
      const kindOrder = descending ? sql`i.kind desc` : sql`i.kind asc`;
      const [rows, [count]] = await Promise.all([
        queryRows<SuiteTableRecord>(
          db,
          sql`select i.id, i.kind, i.category_id, i.title, i.cover, i.price, i.view_count as views, i.comment_count as comments,
                     extract(epoch from i.created_at)::int as createtime, extract(epoch from i.updated_at)::int as updatetime,
                     extract(epoch from i.published_at)::int as publishtime, i.status,
                     c.name as channel_name, c.diyname as channel_diyname
                from items i left join categories c on c.id = i.category_id
               where ${where} order by ${kindOrder}, ${q.orderBy} limit ${q.limit} offset ${q.offset}`,
        ),
        queryRows<{ n: number }>(db, sql`select count(*)::int as n from items i where ${where}`),
      ]);
      return { total: count!.n, rows };
    },

    /** The items of `ids` that exist, as audit rows keep them. */
    async snapshots(ids: readonly number[], tx: Pick<AppDatabase, "execute"> = db): Promise<SuiteSnapshot[]> {
      if (ids.length === 0) return [];
      return queryRows<SuiteSnapshot>(
        tx,
        sql`select id, kind, title, category_id as "categoryId", status, play_url as "playUrl", source_site as "sourceSite",
                   source_id as "sourceId", to_char(published_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "publishedAt"
              from items where id in (${sql.join(ids.map((v) => sql`${v}`), sql`, `)}) order by id`,
      );
    },

    /** Every category for the table's filter (enabled or not: a disabled one still holds suites). */
    async channels(): Promise<{ id: number; name: string; parent_id: number | null; model_id: number }[]> {
      return queryRows(db, sql`select id, name, parent_id, model_id from categories order by sort, id`);
    },
  };
}
