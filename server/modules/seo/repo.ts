import { and, asc, between, eq, sql } from "drizzle-orm";
import type { AppDatabase } from "../../db/open.js";
import { categories, items } from "../../db/schema/index.js";

export interface SitemapRow {
  path: string;
  lastmod: Date;
}

/** What the sitemaps list: enabled categories and visible items, by id ranges. */
export function seoRepo(db: AppDatabase) {
  return {
    categoryEntries(): Promise<{ diyname: string; lastmod: Date }[]> {
      return db
        .select({ diyname: categories.diyname, lastmod: categories.updatedAt })
        .from(categories)
        .where(sql`${categories.enabled}`)
        .orderBy(asc(categories.sort), asc(categories.id));
    },

    async maxItemId(): Promise<number> {
      const [row] = await db.select({ max: sql<number | null>`max(${items.id})::int` }).from(items);
      return row?.max ?? 0;
    },

    itemsInIdRange(fromId: number, toId: number): Promise<{ id: number; lastmod: Date }[]> {
      return db
        .select({ id: items.id, lastmod: items.updatedAt })
        .from(items)
        .where(and(between(items.id, fromId, toId), eq(items.status, "normal")))
        .orderBy(items.id);
    },
  };
}
