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

export function suiteListRepo(db: AppDatabase) {
  return {
    /**
     * A page of one kind's items. The kind is a range, not an equality, and leads the order: an
     * equality would make PostgreSQL drop the kind from the order and walk the primary key
     * (reading past every row of the other kind); this way it walks the (kind, id) or
     * (kind, published_at, id) index backwards or forwards and stops at the page.
     */
    async page(kind: ItemKind, q: TableQuery, descending: boolean): Promise<SuiteTableRecord[]> {
      const kindOrder = descending ? sql`i.kind desc` : sql`i.kind asc`;
      return queryRows<SuiteTableRecord>(
        db,
        sql`select i.id, i.kind, i.category_id, i.title, i.cover, i.price, i.view_count as views, i.comment_count as comments,
                   extract(epoch from i.created_at)::int as createtime, extract(epoch from i.updated_at)::int as updatetime,
                   extract(epoch from i.published_at)::int as publishtime, i.status,
                   c.name as channel_name, c.diyname as channel_diyname
              from items i left join categories c on c.id = i.category_id
             where i.kind between ${kind} and ${kind} and ${q.where} order by ${kindOrder}, ${q.orderBy} limit ${q.limit} offset ${q.offset}`,
      );
    },

    /** How many of one kind match. */
    async count(kind: ItemKind, where: SQL): Promise<number> {
      return (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from items i where i.kind = ${kind} and ${where}`))[0]!.n;
    },

    /** Counts up to cap + 1 matches: a keyword that matches many suites stops early. */
    async countUpTo(kind: ItemKind, where: SQL, cap: number): Promise<number> {
      const query = sql`select count(*)::int as n from (select 1 from items i where i.kind = ${kind} and ${where} limit ${cap + 1}) m`;
      return (await queryRows<{ n: number }>(db, query))[0]!.n;
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
