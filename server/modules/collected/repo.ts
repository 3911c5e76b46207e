import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { categories, collectedItems, items, sourceSites } from "../../db/schema/index.js";
import type { RowOf } from "../../db/sql.js";
import type { AppDatabase } from "../../db/types.js";
import type { Executor } from "../catalogue-write/repo.js";
import type { CategoryRef, CollectedRow } from "./mapping.js";
import type { TableQuery } from "../../http/admin-table.js";

const t = collectedItems;
const seconds = (column: typeof t.processedAt) => sql<number | null>`extract(epoch from ${column})::int`;
/** One row of the back office's table, as selected. */
const TABLE_ROW = {
  id: t.id,
  title: t.title,
  source: t.source,
  source_url: t.sourceUrl,
  source_id: t.sourceId,
  artist: t.artist,
  cover: t.cover,
  kind: t.kind,
  playtype: t.playtype,
  source_category: t.sourceCategory,
  source_category_name: t.sourceCategoryName,
  chart_positions: t.chartPositions,
  duration: t.durationSec,
  size: t.sizeBytes,
  status: t.status,
  item_id: t.itemId,
  createtime: sql<number>`extract(epoch from ${t.createdAt})::int`,
  processtime: seconds(t.processedAt),
  last_seen: seconds(t.lastSeenAt),
};
export type CollectedTableRow = RowOf<typeof TABLE_ROW>;
const parent = alias(categories, "p");

/** The item that already stands for a source's id, as processing needs it. */
export interface ExistingItem {
  id: number;
  categoryId: number | null;
}

/**
 * SQL of the collected data (issue 11, ADR 0024). Items are only read here: they are written
 * through the write service.
 */
export function collectedRepo(db: Executor) {
  /** One page of the back office's table. */
  const page = (q: TableQuery): Promise<CollectedTableRow[]> => db.select(TABLE_ROW).from(t).where(q.where).orderBy(q.orderBy).limit(q.limit).offset(q.offset);
  return {
    page,
    /** The row, locked until the transaction ends (two admins processing it take turns). */
    async lock(id: number): Promise<CollectedRow | undefined> {
      const [row] = await db.select().from(collectedItems).where(eq(collectedItems.id, id)).for("update");
      return row;
    },

    async sourceCodes(): Promise<Set<string>> {
      const rows = await db.select({ code: sourceSites.code }).from(sourceSites);
      return new Set(rows.map((r) => r.code));
    },

    /** Enabled categories with their parent's slug (the mapping matches names and parents). */
    async categories(): Promise<CategoryRef[]> {
      const c = categories;
      return db
        .select({ id: c.id, name: c.name, diyname: c.diyname, parent: parent.diyname })
        .from(c)
        .leftJoin(parent, eq(parent.id, c.parentId))
        .where(sql`${c.enabled}`)
        .orderBy(asc(c.sort), asc(c.id));
    },

    /** The item of (site, id): the unique index `items_source_uq` allows one. */
    async findItem(site: string, sourceId: string): Promise<ExistingItem | undefined> {
      const [row] = await db
        .select({ id: items.id, categoryId: items.categoryId })
        .from(items)
        .where(and(eq(items.sourceSite, site), eq(items.sourceId, sourceId)));
      return row;
    },

    async markProcessed(id: number, itemId: number): Promise<void> {
      await db
        .update(collectedItems)
        .set({ status: 1, itemId, processedAt: sql`now()`, updatedAt: sql`now()` })
        .where(eq(collectedItems.id, id));
    },


    /** A page of the back office's table and the count of all rows that match. */
    async table(q: TableQuery): Promise<{ total: number; rows: CollectedTableRow[] }> {
      const [rows, [counted]] = await Promise.all([
        page(q),
        db.select({ n: sql<number>`count(*)::int` }).from(t).where(q.where),
      ]);
      return { total: counted!.n, rows };
    },

    /** Deletes collected rows (their items stay); returns those that existed, by id. */
    async delete(ids: readonly number[]): Promise<{ id: number; title: string; source: string; sourceUrl: string; status: number; itemId: number | null }[]> {
      if (ids.length === 0) return [];
      const c = collectedItems;
      const rows = await db
        .delete(c)
        .where(inArray(c.id, [...ids]))
        .returning({ id: c.id, title: c.title, source: c.source, sourceUrl: c.sourceUrl, status: c.status, itemId: c.itemId });
      return rows.sort((a, b) => a.id - b.id);
    },
  };
}

export type CollectedRepo = ReturnType<typeof collectedRepo>;
export type { AppDatabase };
