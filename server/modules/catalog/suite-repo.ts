import { and, eq, sql } from "drizzle-orm";
import type { AppDatabase } from "../../db/open.js";
import { categories, items, itemViewDeltas, sourceSites } from "../../db/schema/index.js";
import { type LeftJoined, type RowOf, scalar } from "../../db/sql.js";

const SUITE = {
  id: items.id,
  kind: items.kind,
  title: items.title,
  artist: items.artist,
  cover: items.cover,
  playUrl: items.playUrl,
  playtype: items.playtype,
  durationSec: items.durationSec,
  djlist: items.djlist,
  vipdown: items.vipdown,
  price: items.price,
  viewCount: sql<number>`${items.viewCount} + coalesce(${scalar(sql`select ${itemViewDeltas.views} from ${itemViewDeltas} where ${itemViewDeltas.itemId} = ${items.id}`)}, 0)::int`,
  likeCount: items.likeCount,
  favoriteCount: items.favoriteCount,
  updatedAt: items.updatedAt,
  categoryId: items.categoryId,
  categoryName: categories.name,
  categoryDiyname: categories.diyname,
  siteCode: sourceSites.code,
  siteName: sourceSites.name,
  siteLogo: sourceSites.logo,
};
export type SuiteRow = LeftJoined<RowOf<typeof SUITE>, "categoryName" | "categoryDiyname">;

export function suiteRepo(db: AppDatabase) {
  return {
    /** A visible item with its category and source site; undefined when missing or hidden. */
    async findVisible(id: number): Promise<SuiteRow | undefined> {
      const [row] = await db
        .select(SUITE)
        .from(items)
        .innerJoin(sourceSites, eq(sourceSites.code, items.sourceSite))
        .leftJoin(categories, eq(categories.id, items.categoryId))
        .where(and(eq(items.id, id), sql`${items.status} = 'normal'`));
      return row;
    },

    /**
     * Adds counted views (per item and China day) to item_view_deltas and their sums to each
     * day's `view` history (daily_counters, ADR 0059), in one statement so both commit together;
     * `foldViewDeltas` later moves the deltas into items. An item deleted meanwhile is skipped.
     */
    async addViewCounts(counts: readonly { itemId: number; day: string; views: number }[]): Promise<void> {
      // Raw: data-modifying CTEs. The WITH's insert runs even though the outer statement does not read it.
      await db.execute(
        sql`with x as (
              select x.id, x.day, x.n from json_to_recordset(${JSON.stringify(counts.map((c) => ({ id: c.itemId, day: c.day, n: c.views })))}::json) as x(id int, day date, n int)
              join items i on i.id = x.id
            ), deltas as (
              insert into item_view_deltas (item_id, views) select x.id, sum(x.n) from x group by x.id
              on conflict (item_id) do update set views = item_view_deltas.views + excluded.views
            )
            insert into daily_counters (day, name, count)
            select x.day, 'view', sum(x.n) from x group by x.day
            on conflict (day, name) do update set count = daily_counters.count + excluded.count`,
      );
    },
  };
}
