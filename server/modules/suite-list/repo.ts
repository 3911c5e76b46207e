import { and, asc, eq, inArray, lt, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { categories, type ItemKind, items } from "../../db/schema/index.js";
import type { LeftJoined, RowOf } from "../../db/sql.js";
import type { AppDatabase } from "../../db/types.js";
import type { TableQuery } from "../../http/admin-table.js";
import type { Executor } from "../catalogue-write/repo.js";
import { i } from "./table.js";

const c = alias(categories, "c");
const seconds = (column: typeof i.createdAt) => sql<number>`extract(epoch from ${column})::int`;
const n = sql<number>`count(*)::int`;

/** One row of the suite table as selected (times as Unix seconds). */
const TABLE_ROW = {
  id: i.id,
  kind: i.kind,
  category_id: i.categoryId,
  title: i.title,
  cover: i.cover,
  price: i.price,
  views: i.viewCount,
  comments: i.commentCount,
  createtime: seconds(i.createdAt),
  updatetime: seconds(i.updatedAt),
  publishtime: seconds(i.publishedAt),
  deletetime: sql<number | null>`extract(epoch from ${i.deletedAt})::int`,
  status: i.status,
  channel_name: c.name,
  channel_diyname: c.diyname,
};
export type SuiteTableRecord = LeftJoined<RowOf<typeof TABLE_ROW>, "channel_name" | "channel_diyname">;

/** What an audit row keeps of a deleted or re-statused suite. */
const SNAPSHOT = {
  id: items.id,
  kind: items.kind,
  title: items.title,
  categoryId: items.categoryId,
  status: items.status,
  playUrl: items.playUrl,
  sourceSite: items.sourceSite,
  sourceId: items.sourceId,
  publishedAt: sql<string>`to_char(${items.publishedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`,
  deletedAt: sql<string | null>`to_char(${items.deletedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`,
};
export type SuiteSnapshot = RowOf<typeof SNAPSHOT>;

export function suiteListRepo(db: AppDatabase) {
  return {
    /**
     * A page of one kind's items. The kind is a range, not an equality, and leads the order: an
     * equality would make PostgreSQL drop the kind from the order and walk the primary key
     * (reading past every row of the other kind); this way it walks the (kind, id) or
     * (kind, published_at, id) index backwards or forwards and stops at the page.
     */
    async page(kind: ItemKind, q: TableQuery, descending: boolean): Promise<SuiteTableRecord[]> {
      const kindOrder = descending ? sql`${i.kind} desc` : sql`${i.kind} asc`;
      return db
        .select(TABLE_ROW)
        .from(i)
        .leftJoin(c, eq(c.id, i.categoryId))
        .where(and(sql`${i.kind} between ${kind} and ${kind}`, q.where))
        .orderBy(kindOrder, q.orderBy)
        .limit(q.limit)
        .offset(q.offset);
    },

    /** How many of one kind match. */
    async count(kind: ItemKind, where: SQL): Promise<number> {
      return (await db.select({ n }).from(i).where(and(eq(i.kind, kind), where)))[0]!.n;
    },

    /** Counts up to cap + 1 matches: a keyword that matches many suites stops early. */
    async countUpTo(kind: ItemKind, where: SQL, cap: number): Promise<number> {
      const m = db
        .select({ one: sql`1`.as("one") })
        .from(i)
        .where(and(eq(i.kind, kind), where))
        .limit(cap + 1)
        .as("m");
      return (await db.select({ n }).from(m))[0]!.n;
    },

    /** The items of `ids` that exist, as audit rows keep them. */
    async snapshots(ids: readonly number[], tx: Pick<Executor, "select"> = db): Promise<SuiteSnapshot[]> {
      if (ids.length === 0) return [];
      return tx.select(SNAPSHOT).from(items).where(inArray(items.id, [...ids])).orderBy(items.id);
    },

    /** Suites in the recycle bin since before `cutoff`, oldest first (the purge's next batch). */
    async binnedBefore(cutoff: Date, limit: number): Promise<number[]> {
      const rows = await db.select({ id: items.id }).from(items).where(lt(items.deletedAt, cutoff)).orderBy(asc(items.deletedAt)).limit(limit);
      return rows.map((r) => r.id);
    },

    /** Every category for the table's filter (enabled or not: a disabled one still holds suites). */
    async channels(): Promise<{ id: number; name: string; parent_id: number | null; model_id: number }[]> {
      const t = categories;
      return db.select({ id: t.id, name: t.name, parent_id: t.parentId, model_id: t.modelId }).from(t).orderBy(asc(t.sort), asc(t.id));
    },
  };
}
