import { DEFAULT_AVATAR } from "@contracts/accounts";
import {
  COMMENT_PAGE_SIZE,
  COMMENTS_PER_MINUTE,
  type Comment,
  type DownloadEntry,
  type DownloadResult,
  type FavoriteEntry,
  type FavoriteState,
  type ItemState,
  type LikeState,
  libraryMessages as m,
  notEnoughCoins,
  type PageQuery,
  type Paged,
  type PlaybackPosition,
  type PlayerState,
  POSITIONS_MAX,
  type PutQueue,
  type QueueEntry,
} from "@contracts/library";
import { suitePath } from "@contracts/paths";
import { DEFAULT_ARTIST, DEFAULT_COVER } from "@contracts/player-texts";
import type { AppDatabase } from "../../db/types.js";
import { AppError, badRequest, notFound } from "../../errors.js";
import type { Clock } from "../../lib/clock.js";
import type { EphemeralStore } from "../../lib/ephemeral-store.js";
import type { CatalogueWriteService } from "../catalogue-write/service.js";
import { economyRepo } from "../economy/repo.js";
import { type CommentRow, libraryRepo, type Mark, type QueueItemRow } from "./repo.js";

export interface LibraryDeps {
  writes: CatalogueWriteService;
  ephemeral: EphemeralStore;
  clock: Clock;
}

const COMMENT_WINDOW_MS = 60_000;

/** A name to show beside a comment: the nickname, else the account name half hidden (it is a login name). */
export function commenterName(row: Pick<CommentRow, "nickname" | "username">): string {
  if (row.nickname.trim()) return row.nickname;
  const chars = [...row.username];
  return chars.length <= 2 ? `${chars[0] ?? ""}***` : `${chars[0]}***${chars.at(-1)}`;
}

/** What the player needs of an item (a queue entry; the favourites list adds to it). */
function toQueueEntry(r: QueueItemRow): QueueEntry {
  return {
    id: Number(r.id),
    name: r.title,
    artist: r.artist || DEFAULT_ARTIST,
    cover: r.cover || DEFAULT_COVER,
    palyurl: r.play_url,
    playtype: r.playtype,
    url: suitePath(Number(r.id)),
  };
}

function toComment(row: CommentRow): Comment {
  return {
    id: row.id,
    content: row.content,
    createtime: row.createtime,
    user: { nickname: commenterName(row), avatar: row.avatar || DEFAULT_AVATAR },
  };
}

/**
 * The personal library (ADR 0019): favourites, likes, downloads paid with coins or VIP,
 * comments, and the player's resume points and queue. Counters on items move only through the
 * catalogue write service, in the same transaction as the row they count, and only when this
 * call really added or removed the row: so counts equal rows whatever the concurrency, and
 * every kept page drops the item when the transaction commits.
 */
export function libraryService(db: AppDatabase, { writes, ephemeral, clock }: LibraryDeps) {
  const reader = libraryRepo(db);

  /** Sets or clears a mark; answers the member's state and the item's count after the call. */
  async function setMark(mark: Mark, userId: number, itemId: number, on: boolean): Promise<{ on: boolean; count: number }> {
    return writes.transaction(async (w, tx) => {
      const repo = libraryRepo(tx);
      if (!(await repo.visibleItemExists(itemId))) throw notFound(m.missing);
      const changed = on ? await repo.addMark(mark, userId, itemId, clock()) : await repo.removeMark(mark, userId, itemId);
      if (changed) await w.addToItemCounts(itemId, { [mark]: on ? 1 : -1 });
      return { on, count: await repo.markCount(mark, itemId) };
    });
  }

  return {
    async favorite(userId: number, itemId: number, on: boolean): Promise<FavoriteState> {
      const { count } = await setMark("favorites", userId, itemId, on);
      return { is_favorite: on, count };
    },

    async like(userId: number, itemId: number, on: boolean): Promise<LikeState> {
      const { count } = await setMark("likes", userId, itemId, on);
      return { is_liked: on, count };
    },

    /**
     * The network-drive link and password, for a member who may have them:
     * - no link: 该套曲暂无下载地址;
     * - VIP item (vipdown '1'): an active membership, every time;
     * - priced item: the price once per member and item (a purchase row, written with the coin
     *   deduction and its ledger row; the primary key lets one of simultaneous clicks pay), then free;
     * - free item: free.
     * Every download is recorded and counted in the same transaction.
     */
    async download(userId: number, itemId: number): Promise<DownloadResult> {
      return writes.transaction(async (w, tx) => {
        const repo = libraryRepo(tx);
        const item = await repo.downloadableItem(itemId);
        if (!item) throw notFound(m.missing);
        if (!item.weburl) throw badRequest(m.noDownloadLink);
        const now = clock();
        let charged = 0;
        let coins: number | undefined;
        if (item.vipdown === "1") {
          const vipUntil = await repo.vipUntil(userId);
          if (!vipUntil || vipUntil.getTime() <= now.getTime()) throw badRequest(m.vipOnly);
        } else if (item.price > 0 && (await repo.addPurchase(userId, itemId, item.price, now))) {
          coins = await economyRepo(tx).move(userId, -item.price, { reason: "download", note: `下载《${item.title}》`, itemId, at: now });
          // Thrown inside the transaction: the purchase row goes too.
          if (coins === undefined) throw badRequest(notEnoughCoins(item.price, await repo.coins(userId)));
          charged = item.price;
        }
        await repo.recordDownload(userId, itemId, charged, now);
        await w.addToItemCounts(itemId, { downloads: 1 });
        return { weburl: item.weburl, password: item.webPassword ?? "", coins: coins ?? (await repo.coins(userId)), charged };
      });
    },

    async favorites(userId: number, { page, size }: PageQuery): Promise<Paged<FavoriteEntry>> {
      const { rows, total } = await reader.favorites(userId, size, (page - 1) * size);
      return {
        total,
        list: rows.map((r) => ({
          ...toQueueEntry(r),
          kind: r.kind,
          vipdown: r.vipdown,
          price: r.price,
          downloadable: r.downloadable,
          is_favorite: true,
          createtime: r.createtime,
        })),
      };
    },

    async downloads(userId: number, { page, size }: PageQuery): Promise<Paged<DownloadEntry>> {
      const { rows, total } = await reader.downloads(userId, size, (page - 1) * size);
      return { total, list: rows };
    },

    /** The member's marks on the given items, in the order asked (unknown ids: nothing marked). */
    async itemStates(userId: number, ids: readonly number[]): Promise<ItemState[]> {
      if (ids.length === 0) return [];
      const rows = await reader.itemStates(userId, ids);
      const byId = new Map(rows.map((r) => [Number(r.id), r]));
      return ids.map((id) => {
        const r = byId.get(id);
        return {
          id,
          is_favorite: !!r?.is_favorite,
          is_liked: !!r?.is_liked,
          downloaded: !!r?.downloaded,
          purchased: !!r?.purchased,
          position: r?.position ?? null,
        };
      });
    },

    async comments(itemId: number, page: number): Promise<Paged<Comment>> {
      if (!(await reader.visibleItemExists(itemId))) throw notFound(m.missing);
      const { rows, total } = await reader.comments(itemId, COMMENT_PAGE_SIZE, (page - 1) * COMMENT_PAGE_SIZE);
      return { total, list: rows.map(toComment) };
    },

    /** Posts a comment (already trimmed and 1-500 characters); at most 5 a minute per member. */
    async postComment(userId: number, itemId: number, content: string): Promise<{ comment: Comment; count: number }> {
      if (!(await reader.visibleItemExists(itemId))) throw notFound(m.missing);
      if ((await ephemeral.increment(`comment:${userId}`, COMMENT_WINDOW_MS)) > COMMENTS_PER_MINUTE) {
        throw new AppError(429, m.commentTooFast);
      }
      return writes.transaction(async (w, tx) => {
        const repo = libraryRepo(tx);
        const id = await repo.insertComment(userId, itemId, content, clock());
        await w.addToItemCounts(itemId, { comments: 1 });
        const row = await repo.comment(id);
        return { comment: { ...toComment(row!), mine: true }, count: await repo.commentCount(itemId) };
      });
    },

    /** Deletes one of the member's own comments (another member's id is 评论不存在, as a missing one). */
    async deleteComment(userId: number, commentId: number): Promise<{ count: number }> {
      return writes.transaction(async (w, tx) => {
        const repo = libraryRepo(tx);
        const itemId = await repo.deleteOwnComment(userId, commentId);
        if (itemId === undefined) throw notFound(m.commentMissing);
        await w.addToItemCounts(itemId, { comments: -1 });
        return { count: await repo.commentCount(itemId) };
      });
    },

    /** Resume points (newest first) and the queue with what the player needs of each entry. */
    async playerState(userId: number): Promise<PlayerState> {
      const [positions, queue] = await Promise.all([reader.positions(userId, POSITIONS_MAX), reader.queue(userId)]);
      if (!queue) return { positions, queue: { items: [], index: -1, updatedAt: null } };
      const found = new Map((await reader.playableItems(queue.ids)).map((r) => [Number(r.id), r]));
      // Entries gone from the catalogue drop out; the current one stays current, or the one before it.
      const kept: number[] = [];
      let index = -1;
      queue.ids.forEach((id, i) => {
        if (!found.has(id)) return;
        if (i <= queue.index) index = kept.length;
        kept.push(id);
      });
      if (index === -1 && queue.index >= 0 && kept.length) index = 0;
      return {
        positions,
        queue: {
          index,
          updatedAt: queue.updatedAt,
          items: kept.map((id) => toQueueEntry(found.get(id)!)),
        },
      };
    },

    /** Stores resume points; per item the newest (by updatedAt, never later than now) wins. */
    async savePositions(userId: number, positions: readonly PlaybackPosition[]): Promise<void> {
      const now = clock().getTime();
      const newest = new Map<number, PlaybackPosition>();
      for (const p of positions) {
        const seen = newest.get(p.id);
        if (!seen || seen.updatedAt < p.updatedAt) newest.set(p.id, p);
      }
      await reader.upsertPositions(
        userId,
        [...newest.values()].map((p) => ({
          id: p.id,
          position: Math.floor(p.position),
          duration: p.duration === null ? null : Math.floor(p.duration),
          // A browser clock running ahead must not pin a point against later writes.
          at: new Date(Math.min(p.updatedAt, now)),
        })),
      );
    },

    async saveQueue(userId: number, queue: PutQueue): Promise<void> {
      await reader.saveQueue(userId, queue.ids, queue.index, clock());
    },
  };
}

export type LibraryService = ReturnType<typeof libraryService>;
