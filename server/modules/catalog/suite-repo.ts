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
                   i.view_count as "viewCount", i.like_count as "likeCount", i.favorite_count as "favoriteCount",
                   i.updated_at as "updatedAt", c.name as "categoryName", c.diyname as "categoryDiyname",
                   s.code as "siteCode", s.name as "siteName", s.logo as "siteLogo"
            from items i
            join source_sites s on s.code = i.source_site
            left join categories c on c.id = i.category_id
            where i.id = ${id} and i.status = 'normal'`,
      );
      return row;
    },

    /** Counts the view unless this visitor already viewed the item that day; true when counted. */
    async recordView(itemId: number, visitorId: string, day: string): Promise<boolean> {
      const rows = await queryRows<{ id: number }>(
        db,
        sql`with fresh as (
              insert into item_views (item_id, visitor_id, day) values (${itemId}, ${visitorId}, ${day})
              on conflict do nothing returning item_id)
            update items set view_count = view_count + 1 where id in (select item_id from fresh) returning id`,
      );
      return rows.length > 0;
    },
  };
}
