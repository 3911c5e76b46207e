import { sql } from "drizzle-orm";
import type { AppDatabase } from "../../db/open.js";
import { queryRows } from "../../db/sql.js";

export interface SitemapRow {
  path: string;
  lastmod: Date;
}

/** What the sitemaps list: enabled categories and visible items, by id ranges. */
export function seoRepo(db: AppDatabase) {
  return {
    categoryEntries(): Promise<{ diyname: string; lastmod: Date }[]> {
      return queryRows(
        db,
        sql`select diyname, updated_at as lastmod from categories where enabled order by sort, id`,
      );
    },

    async maxItemId(): Promise<number> {
      const [row] = await queryRows<{ max: number | null }>(db, sql`select max(id)::int as max from items`);
      return row?.max ?? 0;
    },

    itemsInIdRange(fromId: number, toId: number): Promise<{ id: number; lastmod: Date }[]> {
      return queryRows(
        db,
        sql`select id, updated_at as lastmod from items
            where id between ${fromId} and ${toId} and status = 'normal' order by id`,
      );
    },
  };
}
