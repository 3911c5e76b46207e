import { sql } from "drizzle-orm";
import { queryRows } from "../../db/sql.js";
import type { AppDatabase } from "../../db/types.js";
import type { CatalogueItemRow } from "../catalog/catalogue-item.js";

/** The database or an open transaction (the write service's `tx`). */
export type Executor = Pick<AppDatabase, "execute">;

/** The two user x item marks that have a counter on the item. */
export type Mark = "favorites" | "likes";
const MARK_TABLE = { favorites: sql.identifier("favorites"), likes: sql.identifier("likes") };
const MARK_COUNT = { favorites: sql.identifier("favorite_count"), likes: sql.identifier("like_count") };

/** What a download needs to know about the item. */
export interface DownloadableItem {
  id: number;
  title: string;
  vipdown: "0" | "1";
  price: number;
  weburl: string | null;
  webPassword: string | null;
}

/** What the player needs of an item (the queue's entries). */
export type QueueItemRow = Pick<CatalogueItemRow, "id" | "title" | "artist" | "cover" | "play_url" | "playtype">;

export type FavoriteRow = QueueItemRow &
  Pick<CatalogueItemRow, "kind"> & { vipdown: "0" | "1"; price: number; downloadable: boolean; createtime: number };

export interface DownloadRow {
  id: number;
  b_id: number;
  title: string;
  createtime: number;
  coins_spent: number;
  vipdown: "0" | "1";
  price: number;
}

export interface CommentRow {
  id: number;
  content: string;
  createtime: number;
  nickname: string;
  username: string;
  avatar: string | null;
}

export interface ItemStateRow {
  id: number;
  is_favorite: boolean;
  is_liked: boolean;
  downloaded: boolean;
  purchased: boolean;
  position: number | null;
}

export interface PositionRow {
  id: number;
  position: number;
  duration: number | null;
  updatedAt: number;
}

/** Unix seconds of a timestamp column, whole (floor, not rounded). */
const unixSeconds = (column: ReturnType<typeof sql>) => sql`floor(extract(epoch from ${column}))::int`;
/** Ids travel as one JSON parameter: the same SQL on PGlite and node-postgres. */
const idList = (ids: readonly number[]) => sql`(select (v)::int from json_array_elements_text(${JSON.stringify(ids)}::json) as x(v))`;

/** SQL of the personal library: favourites, likes, downloads, purchases, comments, resume points, queues. */
export function libraryRepo(db: Executor) {
  const one = async <T>(query: ReturnType<typeof sql>): Promise<T | undefined> => (await queryRows<T>(db, query))[0];
  const count = async (query: ReturnType<typeof sql>): Promise<number> => (await one<{ n: number }>(query))?.n ?? 0;

  return {
    async visibleItemExists(id: number): Promise<boolean> {
      return (await one(sql`select 1 as found from items where id = ${id} and status = 'normal'`)) !== undefined;
    },

    async downloadableItem(id: number): Promise<DownloadableItem | undefined> {
      return one<DownloadableItem>(
        sql`select id, title, vipdown, price, weburl, web_password as "webPassword" from items where id = ${id} and status = 'normal'`,
      );
    },

    /** Adds the mark; true only when this call added it (a second click finds it and adds nothing). */
    async addMark(mark: Mark, userId: number, itemId: number, at: Date): Promise<boolean> {
      const rows = await queryRows(
        db,
        sql`insert into ${MARK_TABLE[mark]} (user_id, item_id, created_at) values (${userId}, ${itemId}, ${at})
            on conflict (user_id, item_id) do nothing returning id`,
      );
      return rows.length > 0;
    },

    /** Removes the member's own mark; true only when this call removed it. */
    async removeMark(mark: Mark, userId: number, itemId: number): Promise<boolean> {
      const rows = await queryRows(db, sql`delete from ${MARK_TABLE[mark]} where user_id = ${userId} and item_id = ${itemId} returning id`);
      return rows.length > 0;
    },

    async markCount(mark: Mark, itemId: number): Promise<number> {
      return count(sql`select ${MARK_COUNT[mark]} as n from items where id = ${itemId}`);
    },

    async vipUntil(userId: number): Promise<Date | null> {
      const row = await one<{ vip_until: Date | string | null }>(sql`select vip_until from users where id = ${userId}`);
      return row?.vip_until ? new Date(row.vip_until) : null;
    },

    async coins(userId: number): Promise<number> {
      return count(sql`select coins as n from users where id = ${userId}`);
    },

    /**
     * Marks the item as paid for by the member; false when it already was. Simultaneous calls
     * wait on the primary key, so exactly one of them gets true.
     */
    async addPurchase(userId: number, itemId: number, coins: number, at: Date): Promise<boolean> {
      const rows = await queryRows(
        db,
        sql`insert into download_purchases (user_id, item_id, coins, created_at) values (${userId}, ${itemId}, ${coins}, ${at})
            on conflict (user_id, item_id) do nothing returning item_id`,
      );
      return rows.length > 0;
    },

    /** Takes `price` coins if the balance covers it; the new balance, or undefined when too few. */
    async spendCoins(userId: number, price: number): Promise<number | undefined> {
      const row = await one<{ coins: number }>(
        sql`update users set coins = coins - ${price} where id = ${userId} and coins >= ${price} returning coins`,
      );
      return row?.coins;
    },

    async recordDownload(userId: number, itemId: number, coinsSpent: number, at: Date): Promise<void> {
      await db.execute(sql`insert into downloads (user_id, item_id, coins_spent, created_at) values (${userId}, ${itemId}, ${coinsSpent}, ${at})`);
    },

    /** The member's favourites of visible items, newest first. */
    async favorites(userId: number, limit: number, offset: number): Promise<{ rows: FavoriteRow[]; total: number }> {
      const from = sql`from favorites f join items i on i.id = f.item_id and i.status = 'normal' where f.user_id = ${userId}`;
      const [rows, total] = await Promise.all([
        queryRows<FavoriteRow>(
          db,
          sql`select i.id, i.title, i.artist, i.cover, i.play_url, i.playtype, i.kind, i.vipdown, i.price,
                     coalesce(i.weburl, '') <> '' as downloadable, ${unixSeconds(sql`f.created_at`)} as createtime
              ${from} order by f.created_at desc, f.id desc limit ${limit} offset ${offset}`,
        ),
        count(sql`select count(*)::int as n ${from}`),
      ]);
      return { rows, total };
    },

    /** Every download of the member (re-downloads too), newest first. */
    async downloads(userId: number, limit: number, offset: number): Promise<{ rows: DownloadRow[]; total: number }> {
      const [rows, total] = await Promise.all([
        queryRows<DownloadRow>(
          db,
          sql`select d.id, d.item_id as b_id, i.title, ${unixSeconds(sql`d.created_at`)} as createtime, d.coins_spent, i.vipdown, i.price
              from downloads d join items i on i.id = d.item_id
              where d.user_id = ${userId} order by d.created_at desc, d.id desc limit ${limit} offset ${offset}`,
        ),
        count(sql`select count(*)::int as n from downloads where user_id = ${userId}`),
      ]);
      return { rows, total };
    },

    async itemStates(userId: number, ids: readonly number[]): Promise<ItemStateRow[]> {
      return queryRows<ItemStateRow>(
        db,
        sql`select x.id,
                   exists(select 1 from favorites f where f.user_id = ${userId} and f.item_id = x.id) as is_favorite,
                   exists(select 1 from likes l where l.user_id = ${userId} and l.item_id = x.id) as is_liked,
                   exists(select 1 from downloads d where d.user_id = ${userId} and d.item_id = x.id) as downloaded,
                   exists(select 1 from download_purchases p where p.user_id = ${userId} and p.item_id = x.id) as purchased,
                   (select pp.position_sec from playback_positions pp where pp.user_id = ${userId} and pp.item_id = x.id) as position
              from ${idList(ids)} as x(id)`,
      );
    },

    async insertComment(userId: number, itemId: number, content: string, at: Date): Promise<number> {
      const row = await one<{ id: number }>(
        sql`insert into comments (item_id, user_id, content, created_at, updated_at) values (${itemId}, ${userId}, ${content}, ${at}, ${at}) returning id`,
      );
      return row!.id;
    },

    /** Deletes the member's own visible comment; its item id, or undefined when there is no such comment of theirs. */
    async deleteOwnComment(userId: number, commentId: number): Promise<number | undefined> {
      const row = await one<{ item_id: number }>(
        sql`delete from comments where id = ${commentId} and user_id = ${userId} and status = 'normal' returning item_id`,
      );
      return row?.item_id;
    },

    async comment(id: number): Promise<CommentRow | undefined> {
      return one<CommentRow>(
        sql`select c.id, c.content, ${unixSeconds(sql`c.created_at`)} as createtime, u.nickname, u.username, u.avatar
            from comments c join users u on u.id = c.user_id where c.id = ${id}`,
      );
    },

    async comments(itemId: number, limit: number, offset: number): Promise<{ rows: CommentRow[]; total: number }> {
      const [rows, total] = await Promise.all([
        queryRows<CommentRow>(
          db,
          sql`select c.id, c.content, ${unixSeconds(sql`c.created_at`)} as createtime, u.nickname, u.username, u.avatar
              from comments c join users u on u.id = c.user_id
              where c.item_id = ${itemId} and c.status = 'normal'
              order by c.created_at desc, c.id desc limit ${limit} offset ${offset}`,
        ),
        count(sql`select count(*)::int as n from comments where item_id = ${itemId} and status = 'normal'`),
      ]);
      return { rows, total };
    },

    async commentCount(itemId: number): Promise<number> {
      return count(sql`select comment_count as n from items where id = ${itemId}`);
    },

    /**
     * Upserts resume points of existing items; a stored point newer than the one sent stays
     * (the newest wins, whichever device wrote it). Ids must be distinct.
     */
    async upsertPositions(userId: number, positions: readonly { id: number; position: number; duration: number | null; at: Date }[]) {
      if (positions.length === 0) return;
      const payload = JSON.stringify(positions.map((p) => ({ ...p, at: p.at.toISOString() })));
      await db.execute(
        sql`insert into playback_positions (user_id, item_id, position_sec, duration_sec, updated_at)
            select ${userId}, x.id, x.position, x.duration, x.at
              from json_to_recordset(${payload}::json) as x(id int, position int, duration int, at timestamptz)
              join items i on i.id = x.id
            on conflict (user_id, item_id) do update
               set position_sec = excluded.position_sec, duration_sec = excluded.duration_sec, updated_at = excluded.updated_at
             where playback_positions.updated_at < excluded.updated_at`,
      );
    },

    async positions(userId: number, limit: number): Promise<PositionRow[]> {
      const rows = await queryRows<PositionRow>(
        db,
        sql`select item_id as id, position_sec as position, duration_sec as duration,
                   (extract(epoch from updated_at) * 1000)::float8 as "updatedAt"
              from playback_positions where user_id = ${userId} order by updated_at desc limit ${limit}`,
      );
      return rows.map((r) => ({ ...r, updatedAt: Math.floor(Number(r.updatedAt)) }));
    },

    async saveQueue(userId: number, ids: readonly number[], index: number, at: Date): Promise<void> {
      await db.execute(
        sql`insert into player_queues (user_id, item_ids, current_index, updated_at)
            values (${userId}, array(select v from ${idList(ids)} as x(v)), ${index}, ${at})
            on conflict (user_id) do update
               set item_ids = excluded.item_ids, current_index = excluded.current_index, updated_at = excluded.updated_at`,
      );
    },

    async queue(userId: number): Promise<{ ids: number[]; index: number; updatedAt: number } | undefined> {
      const row = await one<{ item_ids: number[] | string; current_index: number; at: number }>(
        sql`select item_ids, current_index, (extract(epoch from updated_at) * 1000)::float8 as at from player_queues where user_id = ${userId}`,
      );
      if (!row) return undefined;
      // node-postgres parses int[]; be lenient if a driver hands back the literal.
      const ids = Array.isArray(row.item_ids) ? row.item_ids.map(Number) : String(row.item_ids).replace(/[{}]/g, "").split(",").filter(Boolean).map(Number);
      return { ids, index: row.current_index, updatedAt: Math.floor(Number(row.at)) };
    },

    async playableItems(ids: readonly number[]): Promise<QueueItemRow[]> {
      if (ids.length === 0) return [];
      return queryRows<QueueItemRow>(
        db,
        sql`select id, title, artist, cover, play_url, playtype from items where status = 'normal' and id in ${idList(ids)}`,
      );
    },
  };
}

export type LibraryRepo = ReturnType<typeof libraryRepo>;
