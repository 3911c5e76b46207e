import {
  countAudioFiles,
  DEFAULT_ARTIST,
  DEFAULT_COVER,
  type MusicInfo,
  sortDjList,
  suiteMessages,
  type ViewCount,
} from "@contracts/suite";
import { categoryPath, suitePath } from "@contracts/paths";
import type { AppDatabase } from "../../db/open.js";
import { AppError, notFound } from "../../errors.js";
import type { CacheRegistry } from "../../lib/cache.js";
import { tags } from "../../lib/cache-tags.js";
import { type SuiteRow, suiteRepo } from "./suite-repo.js";
import type { ViewBuffer } from "./view-buffer.js";
import { chinaDay } from "../../lib/china-day.js";

export function toMusicInfo(row: SuiteRow): MusicInfo {
  const djlist = sortDjList(row.djlist ?? []);
  return {
    id: row.id,
    title: row.title,
    url: suitePath(row.id),
    artist: row.artist || DEFAULT_ARTIST,
    image: row.cover || DEFAULT_COVER,
    palyurl: row.playUrl,
    playtype: row.playtype,
    kind: row.kind,
    channel: row.categoryDiyname
      ? { name: row.categoryName ?? "", url: categoryPath(row.categoryDiyname) }
      : { name: "", url: "/" },
    website: { code: row.siteCode, name: row.siteName, logo: row.siteLogo },
    vipdown: row.vipdown,
    price: row.price,
    views: row.viewCount,
    countLikes: row.likeCount,
    countFavorites: row.favoriteCount,
    duration: row.durationSec,
    djlist,
    // A single without a tree is itself one audio file.
    audioFiles: djlist.length ? countAudioFiles(djlist) : 1,
    update_time: Math.floor(new Date(row.updatedAt).getTime() / 1000),
  };
}

/**
 * A suite's data is read once and kept until a change event names it, its category or its
 * source site (ADR 0012, 0016), so a suite's page costs no query.
 * Past SUITE_INFO_FRESH_MS it is re-read in the background while the kept copy is still served.
 * Its view count stays exact meanwhile: the row's count, plus the views this process added
 * since the row was read that the row cannot hold (the batched writes of view-buffer.ts).
 */
export const SUITE_INFO_FRESH_MS = 60_000;
const SUITE_INFO_MAX_STALE_MS = 10 * 60_000;
const SUITE_INFO_MAX = 10_000;
/** A kept suite is ~1-20 KB (its djlist); the bytes cap holds even if every one is large. */
const SUITE_INFO_MAX_BYTES = 64 * 1024 * 1024;

interface KeptSuite {
  info: MusicInfo;
  categoryId: number | null;
  writtenBeforeRead: number;
  bytes: number;
}

export function suiteService(
  db: AppDatabase,
  { caches, views, now = () => new Date() }: { caches: CacheRegistry; views: ViewBuffer; now?: () => Date },
) {
  const repo = suiteRepo(db);
  const infos = caches.create<KeptSuite | null>({
    name: "suites",
    freshMs: SUITE_INFO_FRESH_MS,
    staleMs: SUITE_INFO_MAX_STALE_MS,
    maxEntries: SUITE_INFO_MAX,
    maxBytes: SUITE_INFO_MAX_BYTES,
    sizeOf: (kept) => kept?.bytes ?? 64,
    // A suite shows its own data and counts, its category's name and address, its site.
    tagsOf: (kept, id) => [
      tags.item(Number(id)),
      tags.counts(Number(id)),
      ...(kept?.categoryId != null ? [tags.category(kept.categoryId)] : []),
      ...(kept ? [tags.source(kept.info.website.code)] : []),
    ],
  });
  async function read(id: number): Promise<KeptSuite | null> {
    // Views added before the read and already written are in the row's count.
    const writtenBeforeRead = views.addedFor(id) - views.pendingFor(id);
    const row = await repo.findVisible(id);
    if (!row) return null;
    const info = toMusicInfo(row);
    return { info, categoryId: row.categoryId, writtenBeforeRead, bytes: 512 + 2 * JSON.stringify(info.djlist).length };
  }
  /**
   * The kept data (the same object until it is re-read: its `views` is the read's) and the
   * exact view count now: the row's, plus this process's views since the read (view-buffer.ts).
   * Counts nothing: only a view beacon does (`view`, ADR 0053).
   */
  async function current(id: number): Promise<{ kept: MusicInfo; views: number }> {
    const cached = await infos.get(String(id), () => read(id));
    if (!cached) throw notFound(suiteMessages.missing);
    const { info, writtenBeforeRead } = cached;
    return { kept: info, views: info.views + views.addedFor(id) - writtenBeforeRead };
  }

  return {
    current,

    /**
     * The kept data when the cache holds it fresh (no read, no refresh due), else undefined: for
     * the kept-page lane, which serves a suite page only while it shows the kept data.
     */
    keptNow: (id: number): MusicInfo | undefined => infos.getFresh(String(id))?.info,

    /**
     * A page's view beacon: counts the visitor's view (once a day, view-buffer.ts) and resolves
     * once it is committed, with the exact count after it.
     */
    async view(id: number, visitorId: string | null): Promise<ViewCount> {
      const before = await current(id);
      // No signed visitor: nothing counted (403), the count still given for the page to show.
      if (!visitorId) throw new AppError(403, suiteMessages.viewNoVisitor, { id, views: before.views, counted: false });
      const counted = await views.add({ itemId: id, visitorId, day: chinaDay(now()) });
      return { id, views: (await current(id)).views, counted };
    },

    /** The suite's data with the exact view count (counting nothing). */
    async musicInfo(id: number): Promise<MusicInfo> {
      const { kept, views } = await current(id);
      return { ...kept, views };
    },

    /** Writes the views waiting in the buffer (at shutdown, and in tests). */
    flushViews: () => views.flush(),

    /** Adds the written views to items.view_count now (a timer does it every VIEW_FOLD_MS). */
    foldViews: () => views.fold(),
  };
}

export type SuiteService = ReturnType<typeof suiteService>;
