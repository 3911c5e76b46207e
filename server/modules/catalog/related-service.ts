import { DEFAULT_ARTIST } from "@contracts/player-texts";
import { RELATED_LINES, type Related } from "@contracts/related";
import { suiteMessages } from "@contracts/suite";
import type { AppDatabase } from "../../db/open.js";
import { notFound } from "../../errors.js";
import type { CacheRegistry } from "../../lib/cache.js";
import { tags } from "../../lib/cache-tags.js";
import { toCatalogueItem } from "./catalogue-item.js";
import { relatedRepo } from "./related-repo.js";

/**
 * Kept 10 minutes, then re-read in the background: a new item by the same artist in another
 * category shows within that time. An edit of the suite, of a listed item or of the category
 * drops it at once (its tags).
 */
const RELATED_FRESH_MS = 10 * 60_000;
const RELATED_STALE_MS = 60 * 60_000;

interface KeptRelated {
  answer: Related;
  categoryId: number | null;
}

/** A suite page's 该DJ的更多作品 and 相关推荐 (ADR 0062), kept per suite. */
export function relatedService(db: AppDatabase, { caches }: { caches: CacheRegistry }) {
  const repo = relatedRepo(db);
  const kept = caches.create<KeptRelated | null>({
    name: "suite-related",
    freshMs: RELATED_FRESH_MS,
    staleMs: RELATED_STALE_MS,
    maxEntries: 10_000,
    maxBytes: 32 * 1024 * 1024,
    sizeOf: (value) => (value ? 256 + JSON.stringify(value.answer).length * 2 : 64),
    tagsOf: (value, id) => [
      tags.item(Number(id)),
      ...(value?.categoryId != null ? [tags.category(value.categoryId)] : []),
      ...(value ? [...value.answer.byArtist, ...value.answer.related].map((x) => tags.item(Number(x.id))) : []),
    ],
  });

  async function read(id: number): Promise<KeptRelated | null> {
    const subject = await repo.subject(id);
    if (!subject) return null;
    // The default artist is no one's name: no "more by" list for it.
    const named = subject.artist.trim() && subject.artist !== DEFAULT_ARTIST;
    const byArtist = named ? await repo.byArtist(subject.artist, id, RELATED_LINES) : [];
    const related =
      subject.categoryId == null ? [] : await repo.alike(subject.categoryId, subject.title, [id, ...byArtist.map((r) => r.id)], RELATED_LINES);
    return {
      categoryId: subject.categoryId,
      answer: { artist: named ? subject.artist : "", byArtist: byArtist.map(toCatalogueItem), related: related.map(toCatalogueItem) },
    };
  }

  return {
    async of(id: number): Promise<Related> {
      const value = await kept.get(String(id), () => read(id));
      if (!value) throw notFound(suiteMessages.missing);
      return value.answer;
    },
  };
}

export type RelatedService = ReturnType<typeof relatedService>;
