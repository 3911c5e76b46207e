import { and, eq, sql } from "drizzle-orm";
import type { AppDatabase } from "../../db/open.js";
import type { ChartPeriod, ItemKind } from "../../db/schema/index.js";
import { collectedItems, items, sourceChartEntries, sourceSites } from "../../db/schema/index.js";
import type { LeftJoined, RowOf } from "../../db/sql.js";

const e = sourceChartEntries;
const c = collectedItems;
/**
 * One line of a site's own chart with its collected item, and our item when linked and visible
 * (`item*` set only then); `siteName` is the site's shown name, null for a site not listed.
 */
const LINE = {
  rank: sql<number>`${e.rank}::int`,
  collectedAt: e.collectedAt,
  title: c.title,
  artist: c.artist,
  cover: c.cover,
  playtype: c.playtype,
  sourceId: c.sourceId,
  sourceUrl: c.sourceUrl,
  siteName: sourceSites.name,
  itemId: items.id,
  itemTitle: items.title,
  itemArtist: items.artist,
  itemCover: items.cover,
  itemPlaytype: items.playtype,
  itemPlayUrl: items.playUrl,
};
export type SourceChartRow = LeftJoined<RowOf<typeof LINE>, "siteName" | "itemId" | "itemTitle" | "itemArtist" | "itemCover" | "itemPlaytype" | "itemPlayUrl">;

/** SQL of the sites' own charts (`source_chart_entries`, written by the collector). */
export function sourceChartsRepo(db: AppDatabase) {
  return {
    /** One chart of one site, first `limit` lines by the site's rank. */
    chart(site: string, kind: ItemKind, period: ChartPeriod, limit: number): Promise<SourceChartRow[]> {
      return db
        .select(LINE)
        .from(e)
        .innerJoin(c, eq(c.id, e.collectedItemId))
        .leftJoin(items, and(eq(items.id, c.itemId), eq(c.status, 1), eq(items.status, "normal")))
        .leftJoin(sourceSites, eq(sourceSites.code, e.site))
        .where(and(eq(e.site, site), eq(e.kind, kind), eq(e.period, period)))
        .orderBy(e.rank)
        .limit(limit);
    },

    /** The site's shown name, or null when source_sites does not list it. */
    async siteName(site: string): Promise<string | null> {
      const [row] = await db.select({ name: sourceSites.name }).from(sourceSites).where(eq(sourceSites.code, site));
      return row?.name ?? null;
    },
  };
}
