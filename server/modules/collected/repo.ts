import { and, eq, inArray, sql } from "drizzle-orm";
import { collectedItems, items } from "../../db/schema/index.js";
import { queryRows } from "../../db/sql.js";
import type { AppDatabase } from "../../db/types.js";
import type { Executor } from "../catalogue-write/repo.js";
import type { CategoryRef, CollectedRow } from "./mapping.js";
import type { TableQuery } from "../../http/admin-table.js";

/** One row of the back office's table, as selected. */
export interface CollectedTableRow {
  id: number;
  title: string;
  source: string;
  source_url: string;
  source_id: string | null;
  artist: string | null;
  cover: string | null;
  kind: "mix" | "single" | null;
  playtype: "mp3" | "mp4";
  source_category: string | null;
  source_category_name: string | null;
  chart_positions: Record<string, number>;
  duration: number | null;
  size: number | string | null;
  status: number;
  item_id: number | null;
  createtime: number;
  processtime: number | null;
  last_seen: number | null;
}

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
  return {
    /** The row, locked until the transaction ends (two admins processing it take turns). */
    async lock(id: number): Promise<CollectedRow | undefined> {
      const [row] = await db.select().from(collectedItems).where(eq(collectedItems.id, id)).for("update");
      return row;
    },

    async sourceCodes(): Promise<Set<string>> {
      const rows = await queryRows<{ code: string }>(db, sql`select code from source_sites`);
      return new Set(rows.map((r) => r.code));
    },

    /** Enabled categories with their parent's slug (the mapping matches names and parents). */
    async categories(): Promise<CategoryRef[]> {
      return queryRows<CategoryRef>(
        db,
        sql`select c.id, c.name, c.diyname, p.diyname as parent
              from categories c left join categories p on p.id = c.parent_id
             where c.enabled order by c.sort, c.id`,
      );
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
      const [rows, [{ n }]] = await Promise.all([
        queryRows<CollectedTableRow>(
          db,
          sql`select id, title, source, source_url, source_id, artist, cover, kind, playtype, source_category, source_category_name,
                     chart_positions, duration_sec as duration, size_bytes as size, status, item_id,
                     extract(epoch from created_at)::int as createtime, extract(epoch from processed_at)::int as processtime,
                     extract(epoch from last_seen_at)::int as last_seen
                from collected_items where ${q.where} order by ${q.orderBy} limit ${q.limit} offset ${q.offset}`,
        ),
        queryRows<{ n: number }>(db, sql`select count(*)::int as n from collected_items where ${q.where}`),
      ]);
      return { total: n, rows };
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
