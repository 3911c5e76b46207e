import { and, desc, eq, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { comments, downloadPurchases, downloads, favorites, items, likes, playbackPositions, playerQueues, users } from "../../db/schema/index.js";
import { type RowOf, selectRows } from "../../db/sql.js";
import type { AppDatabase } from "../../db/types.js";
import type { CatalogueItemRow } from "../catalog/catalogue-item.js";

/** The database or an open transaction (the write service's `tx`). */
export type Executor = Pick<AppDatabase, "execute" | "select" | "insert" | "delete">;

/** The two user x item marks that have a counter on the item. */
export type Mark = "favorites" | "likes";
const MARK_TABLE = { favorites, likes };
const MARK_COUNT = { favorites: items.favoriteCount, likes: items.likeCount };

/** What the player needs of an item (the queue's entries). */
export type QueueItemRow = Pick<CatalogueItemRow, "id" | "title" | "artist" | "cover" | "play_url" | "playtype">;

/** Unix seconds of a timestamp column, whole (floor, not rounded). */
const unixSeconds = (column: AnyPgColumn) => sql<number>`floor(extract(epoch from ${column}))::int`;
const n = sql<number>`count(*)::int`;
const visible = eq(items.status, "normal");
/** What a download needs to know about the item. */
const DOWNLOADABLE = { id: items.id, title: items.title, vipdown: items.vipdown, price: items.price, weburl: items.weburl, webPassword: items.webPassword };
export type DownloadableItem = RowOf<typeof DOWNLOADABLE>;

const FAVORITE_ROW = {
  id: items.id,
  title: items.title,
  artist: items.artist,
  cover: items.cover,
  play_url: items.playUrl,
  playtype: items.playtype,
  kind: items.kind,
  vipdown: items.vipdown,
  price: items.price,
  downloadable: sql<boolean>`coalesce(${items.weburl}, '') <> ''`,
  createtime: unixSeconds(favorites.createdAt),
};
export type FavoriteRow = RowOf<typeof FAVORITE_ROW>;

const DOWNLOAD_ROW = {
  id: downloads.id,
  b_id: downloads.itemId,
  title: items.title,
  createtime: unixSeconds(downloads.createdAt),
  coins_spent: downloads.coinsSpent,
  vipdown: items.vipdown,
  price: items.price,
};
export type DownloadRow = RowOf<typeof DOWNLOAD_ROW>;

const pp = playbackPositions;
const POSITION_ROW = { id: pp.itemId, position: pp.positionSec, duration: pp.durationSec, updatedAt: sql<number>`(extract(epoch from ${pp.updatedAt}) * 1000)::float8` };
export type PositionRow = RowOf<typeof POSITION_ROW>;

/** The member's state of each asked item, over the derived table `x(id)` of `itemStates`. */
function stateFields(userId: number) {
  const x = sql`x.id`;
  const has = (t: typeof favorites | typeof likes | typeof downloads | typeof downloadPurchases) =>
    sql<boolean>`exists(select 1 from ${t} where ${t.userId} = ${userId} and ${t.itemId} = ${x})`;
  return {
    id: sql<number>`${x}`,
    is_favorite: has(favorites),
    is_liked: has(likes),
    downloaded: has(downloads),
    purchased: has(downloadPurchases),
    position: sql<number | null>`(select ${pp.positionSec} from ${pp} where ${pp.userId} = ${userId} and ${pp.itemId} = ${x})`,
  };
}
export type ItemStateRow = RowOf<ReturnType<typeof stateFields>>;

export type CommentRow = RowOf<typeof COMMENT_ROW>;
const COMMENT_ROW = {
  id: comments.id,
  content: comments.content,
  createtime: unixSeconds(comments.createdAt),
  nickname: users.nickname,
  username: users.username,
  avatar: users.avatar,
};
/** Ids travel as one JSON parameter: the same SQL on PGlite and node-postgres. */
const idList = (ids: readonly number[]) => sql`(select (v)::int from json_array_elements_text(${JSON.stringify(ids)}::json) as x(v))`;

/** SQL of the personal library: favourites, likes, downloads, purchases, comments, resume points, queues. */
export function libraryRepo(db: Executor) {
  const count = async (query: Promise<{ n: number }[]>): Promise<number> => (await query)[0]?.n ?? 0;

  return {
    async visibleItemExists(id: number): Promise<boolean> {
      return (await db.select({ found: sql`1` }).from(items).where(and(eq(items.id, id), visible))).length > 0;
    },

    async downloadableItem(id: number): Promise<DownloadableItem | undefined> {
      const [row] = await db
        .select(DOWNLOADABLE)
        .from(items)
        .where(and(eq(items.id, id), visible));
      return row;
    },

    /** Adds the mark; true only when this call added it (a second click finds it and adds nothing). */
    async addMark(mark: Mark, userId: number, itemId: number, at: Date): Promise<boolean> {
      const t = MARK_TABLE[mark];
      const rows = await db
        .insert(t)
        .values({ userId, itemId, createdAt: at })
        .onConflictDoNothing({ target: [t.userId, t.itemId] })
        .returning({ id: t.id });
      return rows.length > 0;
    },

    /** Removes the member's own mark; true only when this call removed it. */
    async removeMark(mark: Mark, userId: number, itemId: number): Promise<boolean> {
      const t = MARK_TABLE[mark];
      const rows = await db
        .delete(t)
        .where(and(eq(t.userId, userId), eq(t.itemId, itemId)))
        .returning({ id: t.id });
      return rows.length > 0;
    },

    async markCount(mark: Mark, itemId: number): Promise<number> {
      return count(db.select({ n: MARK_COUNT[mark] }).from(items).where(eq(items.id, itemId)));
    },

    async vipUntil(userId: number): Promise<Date | null> {
      const [row] = await db.select({ vipUntil: users.vipUntil }).from(users).where(eq(users.id, userId));
      return row?.vipUntil ?? null;
    },

    async coins(userId: number): Promise<number> {
      return count(db.select({ n: users.coins }).from(users).where(eq(users.id, userId)));
    },

    /**
     * Marks the item as paid for by the member; false when it already was. Simultaneous calls
     * wait on the primary key, so exactly one of them gets true.
     */
    async addPurchase(userId: number, itemId: number, coins: number, at: Date): Promise<boolean> {
      const t = downloadPurchases;
      const rows = await db
        .insert(t)
        .values({ userId, itemId, coins, createdAt: at })
        .onConflictDoNothing({ target: [t.userId, t.itemId] })
        .returning({ itemId: t.itemId });
      return rows.length > 0;
    },

    async recordDownload(userId: number, itemId: number, coinsSpent: number, at: Date): Promise<void> {
      await db.insert(downloads).values({ userId, itemId, coinsSpent, createdAt: at });
    },

    /** The member's favourites of visible items, newest first. */
    async favorites(userId: number, limit: number, offset: number): Promise<{ rows: FavoriteRow[]; total: number }> {
      const on = and(eq(items.id, favorites.itemId), visible);
      const mine = eq(favorites.userId, userId);
      const [rows, total] = await Promise.all([
        db
          .select(FAVORITE_ROW)
          .from(favorites)
          .innerJoin(items, on)
          .where(mine)
          .orderBy(desc(favorites.createdAt), desc(favorites.id))
          .limit(limit)
          .offset(offset),
        count(db.select({ n }).from(favorites).innerJoin(items, on).where(mine)),
      ]);
      return { rows, total };
    },

    /** Every download of the member (re-downloads too), newest first. */
    async downloads(userId: number, limit: number, offset: number): Promise<{ rows: DownloadRow[]; total: number }> {
      const [rows, total] = await Promise.all([
        db
          .select(DOWNLOAD_ROW)
          .from(downloads)
          .innerJoin(items, eq(items.id, downloads.itemId))
          .where(eq(downloads.userId, userId))
          .orderBy(desc(downloads.createdAt), desc(downloads.id))
          .limit(limit)
          .offset(offset),
        count(db.select({ n }).from(downloads).where(eq(downloads.userId, userId))),
      ]);
      return { rows, total };
    },

    async itemStates(userId: number, ids: readonly number[]): Promise<ItemStateRow[]> {
      // Raw: one row per asked id from a JSON list (a derived table the builder cannot name).
      return selectRows(db, stateFields(userId), (list) => sql`select ${list} from ${idList(ids)} as x(id)`);
    },

    async insertComment(userId: number, itemId: number, content: string, at: Date): Promise<number> {
      const [row] = await selectRows(db, { id: comments.id }, (fields) =>
        sql`insert into ${comments} (item_id, user_id, content, created_at, updated_at) values (${itemId}, ${userId}, ${content}, ${at}, ${at}) returning ${fields}`,
      );
      return row!.id;
    },

    /** Deletes the member's own visible comment; its item id, or undefined when there is no such comment of theirs. */
    async deleteOwnComment(userId: number, commentId: number): Promise<number | undefined> {
      const [row] = await selectRows(db, { item_id: comments.itemId }, (fields) =>
        sql`delete from ${comments} where ${comments.id} = ${commentId} and ${comments.userId} = ${userId} and ${comments.status} = 'normal' returning ${fields}`,
      );
      return row?.item_id;
    },

    async comment(id: number): Promise<CommentRow | undefined> {
      const [row] = await db.select(COMMENT_ROW).from(comments).innerJoin(users, eq(users.id, comments.userId)).where(eq(comments.id, id));
      return row;
    },

    async comments(itemId: number, limit: number, offset: number): Promise<{ rows: CommentRow[]; total: number }> {
      const [rows, total] = await Promise.all([
        db
          .select(COMMENT_ROW)
          .from(comments)
          .innerJoin(users, eq(users.id, comments.userId))
          .where(and(eq(comments.itemId, itemId), eq(comments.status, "normal")))
          .orderBy(desc(comments.createdAt), desc(comments.id))
          .limit(limit)
          .offset(offset),
        count(db.select({ n }).from(comments).where(and(eq(comments.itemId, itemId), eq(comments.status, "normal")))),
      ]);
      return { rows, total };
    },

    async commentCount(itemId: number): Promise<number> {
      return count(db.select({ n: items.commentCount }).from(items).where(eq(items.id, itemId)));
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
      const rows = await db
        .select(POSITION_ROW)
        .from(pp)
        .where(eq(pp.userId, userId))
        .orderBy(desc(pp.updatedAt))
        .limit(limit);
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
      const q = playerQueues;
      const [row] = await db
        .select({ item_ids: sql<number[] | string>`${q.itemIds}`, current_index: q.currentIndex, at: sql<number>`(extract(epoch from ${q.updatedAt}) * 1000)::float8` })
        .from(q)
        .where(eq(q.userId, userId));
      if (!row) return undefined;
      // node-postgres parses int[]; be lenient if a driver hands back the literal.
      const ids = Array.isArray(row.item_ids) ? row.item_ids.map(Number) : String(row.item_ids).replace(/[{}]/g, "").split(",").filter(Boolean).map(Number);
      return { ids, index: row.current_index, updatedAt: Math.floor(Number(row.at)) };
    },

    async playableItems(ids: readonly number[]): Promise<QueueItemRow[]> {
      if (ids.length === 0) return [];
      return db
        .select({ id: items.id, title: items.title, artist: items.artist, cover: items.cover, play_url: items.playUrl, playtype: items.playtype })
        .from(items)
        .where(and(visible, sql`${items.id} in ${idList(ids)}`));
    },
  };
}

export type LibraryRepo = ReturnType<typeof libraryRepo>;
