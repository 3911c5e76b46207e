import { sql } from "drizzle-orm";
import type { AppDatabase } from "../../db/open.js";
import type { ChartPeriod, ItemKind, PlayType } from "../../db/schema/index.js";
import { collectedItems, items, sourceChartEntries, sourceSites } from "../../db/schema/index.js";
import { queryRows } from "../../db/sql.js";

/** One line of a site's own chart with its collected item, and our item when linked and visible. */
export interface SourceChartRow {
  rank: number;
  collectedAt: Date | string;
  title: string;
  artist: string | null;
  cover: string | null;
  playtype: PlayType;
  sourceId: string | null;
  sourceUrl: string;
  /** The site's shown name (source_sites.name), null for a site not listed there. */
  siteName: string | null;
  /** Set only when the collected item was processed into an item that is visible now. */
  itemId: number | null;
  itemTitle: string | null;
  itemArtist: string | null;
  itemCover: string | null;
  itemPlaytype: PlayType | null;
  itemPlayUrl: string | null;
}

/** SQL of the sites' own charts (`source_chart_entries`, written by the collector). */
export function sourceChartsRepo(db: AppDatabase) {
  return {
    /** One chart of one site, first `limit` lines by the site's rank. */
    chart(site: string, kind: ItemKind, period: ChartPeriod, limit: number): Promise<SourceChartRow[]> {
      return queryRows<SourceChartRow>(
        db,
        sql`select e.rank::int as rank, e.collected_at as "collectedAt",
                   c.title, c.artist, c.cover, c.playtype, c.source_id as "sourceId", c.source_url as "sourceUrl",
                   s.name as "siteName",
                   i.id as "itemId", i.title as "itemTitle", i.artist as "itemArtist", i.cover as "itemCover",
                   i.playtype as "itemPlaytype", i.play_url as "itemPlayUrl"
              from ${sourceChartEntries} e
              join ${collectedItems} c on c.id = e.collected_item_id
              left join ${items} i on i.id = c.item_id and c.status = 1 and i.status = 'normal'
              left join ${sourceSites} s on s.code = e.site
             where e.site = ${site} and e.kind = ${kind} and e.period = ${period}
             order by e.rank
             limit ${limit}`,
      );
    },

    /** The site's shown name, or null when source_sites does not list it. */
    async siteName(site: string): Promise<string | null> {
      const [row] = await queryRows<{ name: string }>(db, sql`select name from ${sourceSites} where code = ${site}`);
      return row?.name ?? null;
    },
  };
}
