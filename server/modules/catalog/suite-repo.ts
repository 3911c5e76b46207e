import { sql } from "drizzle-orm";
import type { DjListNode } from "@contracts/suite";
import type { AppDatabase } from "../../db/open.js";
import { queryRows } from "../../db/sql.js";

export interface SuiteRow {
  id: number;
  kind: "mix" | "single";
  title: string;
  artist: string;
  cover: string | null;
  playUrl: string;
  playtype: "mp3" | "mp4";
  durationSec: number | null;
  djlist: DjListNode[] | null;
  vipdown: "0" | "1";
  price: number;
  viewCount: number;
  likeCount: number;
  favoriteCount: number;
  updatedAt: Date;
  categoryId: number | null;
  categoryName: string | null;
  categoryDiyname: string | null;
  siteCode: string;
  siteName: string;
  siteLogo: string | null;
}

export function suiteRepo(db: AppDatabase) {
  return {
    /** A visible item with its category and source site; undefined when missing or hidden. */
    async findVisible(id: number): Promise<SuiteRow | undefined> {
      const [row] = await queryRows<SuiteRow>(
        db,
        sql`select i.id, i.kind, i.title, i.artist, i.cover, i.play_url as "playUrl", i.playtype,
                   i.duration_sec as "durationSec", i.djlist, i.vipdown, i.price,
                   i.view_count + coalesce((select d.views from item_view_deltas d where d.item_id = i.id), 0)::int as "viewCount", i.like_count as "likeCount", i.favorite_count as "favoriteCount",
                   i.updated_at as "updatedAt", i.category_id as "categoryId", c.name as "categoryName", c.diyname as "categoryDiyname",
                   s.code as "siteCode", s.name as "siteName", s.logo as "siteLogo"
            from items i
            join source_sites s on s.code = i.source_site
            left join categories c on c.id = i.category_id
            where i.id = ${id} and i.status = 'normal'`,
      );
      return row;
    },

    /**
     * Adds counted views per item ([itemId, views]) to item_view_deltas, in one statement;
     * `foldViewDeltas` later moves them into items. An item deleted meanwhile is skipped.
     */
    async addViewCounts(counts: readonly (readonly [number, number])[]): Promise<void> {
      await db.execute(
        sql`insert into item_view_deltas (item_id, views)
            select x.id, x.n from json_to_recordset(${JSON.stringify(counts.map(([id, n]) => ({ id, n })))}::json) as x(id int, n int)
            join items i on i.id = x.id
            on conflict (item_id) do update set views = item_view_deltas.views + excluded.views`,
      );
    },
  };
}
