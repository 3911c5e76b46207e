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

/** One view of an item by a visitor on a (China) day. */
export interface PendingView {
  itemId: number;
  visitorId: string;
  day: string;
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
                   i.updated_at as "updatedAt", c.name as "categoryName", c.diyname as "categoryDiyname",
                   s.code as "siteCode", s.name as "siteName", s.logo as "siteLogo"
            from items i
            join source_sites s on s.code = i.source_site
            left join categories c on c.id = i.category_id
            where i.id = ${id} and i.status = 'normal'`,
      );
      return row;
    },

    /** Whether the visitor's view of the item on `day` is already stored. */
    async hasView(view: PendingView): Promise<boolean> {
      const rows = await queryRows<{ one: number }>(
        db,
        sql`select 1 as one from item_views where item_id = ${view.itemId} and day = ${view.day} and visitor_id = ${view.visitorId}`,
      );
      return rows.length > 0;
    },

    /**
     * Stores a batch of views in one statement: each (item, visitor, day) counts once, so a view
     * already stored adds nothing; the item's count grows by the rows actually inserted, first in
     * item_view_deltas (see its schema for why), until `foldViewDeltas` moves them into items.
     */
    async recordViews(views: readonly PendingView[]): Promise<number> {
      const [{ n }] = await queryRows<{ n: number }>(
        db,
        sql`with v as (
              select * from json_to_recordset(${JSON.stringify(views)}::json) as x("itemId" int, "visitorId" text, day date)
            ), fresh as (
              insert into item_views (item_id, visitor_id, day)
              select v."itemId", v."visitorId", v.day from v join items i on i.id = v."itemId"
              on conflict do nothing returning item_id
            ), bumped as (
              insert into item_view_deltas (item_id, views)
              select item_id, count(*)::int from fresh group by item_id
              on conflict (item_id) do update set views = item_view_deltas.views + excluded.views
              returning 1
            )
            select count(*)::int as n from fresh`,
      );
      return n;
    },

    /**
     * Moves up to `limit` items' waiting views into items.view_count, in one statement so a
     * reader of both never sees a view twice or not at all. Returns how many items it moved;
     * rows another instance is folding are skipped.
     */
    async foldViewDeltas(limit: number): Promise<number> {
      const [{ n }] = await queryRows<{ n: number }>(
        db,
        sql`with d as (
              delete from item_view_deltas
               where item_id in (select item_id from item_view_deltas limit ${limit} for update skip locked)
              returning item_id, views
            ), folded as (
              update items i set view_count = i.view_count + d.views from d where i.id = d.item_id returning 1
            )
            select count(*)::int as n from d`,
      );
      return n;
    },
  };
}
