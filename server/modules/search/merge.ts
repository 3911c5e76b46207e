import type { CatalogueItem } from "@contracts/catalogue-item";
import { normalize } from "./search-text.js";

/**
 * How the answers of several providers become one list (issue 11, "Search across sources").
 *
 * Ranking, by closeness of the hit's title to the keyword (both normalised: NFKC, lower case,
 * spaces and punctuation ignored):
 *   4  the title is the keyword, or "artist title" is
 *   3  the title starts with the keyword
 *   2  the title (or "artist title") contains the keyword
 *   1  the title and artist contain every character of the keyword, in any order
 *   0  none of these (e.g. a local hit found by pinyin or initials: its place comes from the
 *      local provider's own ranking)
 * Hits of equal score keep the providers' own orders, interleaved by position: the first hit of
 * each provider (local first, then the sources in their configured order), then the second of
 * each, and so on. So local hits keep their own order among equals, and no source buries another.
 *
 * Deduplication across sources: two hits are one when their normalised artist and title are
 * equal and their durations, when both are known, are within DEDUP_DURATION_SECONDS. The hit that
 * ranks first stays (so a local item beats its external copy of the same score). Within one
 * provider equal titles stay (its own duplicates are its business); hits of one site with the
 * same address are one in any case.
 */

export const DEDUP_DURATION_SECONDS = 5;

export interface ProviderHits {
  list: CatalogueItem[];
  durations?: (number | null)[];
}

interface Candidate {
  item: CatalogueItem;
  duration: number | null;
  score: number;
  position: number;
  provider: number;
}

/** Text for comparisons: normalised, then without spaces and punctuation (「」-—·() and the like). */
export function compareText(text: string): string {
  return normalize(text).replace(/[\s\p{P}\p{S}]+/gu, "");
}

export function closeness(keyword: string, item: Pick<CatalogueItem, "name" | "artist">): number {
  const key = compareText(keyword);
  if (key === "") return 0;
  const title = compareText(item.name);
  const both = compareText(item.artist) + title;
  if (title === key || both === key) return 4;
  if (title.startsWith(key)) return 3;
  if (title.includes(key) || both.includes(key)) return 2;
  if ([...key].every((ch) => both.includes(ch))) return 1;
  return 0;
}

function sameRecording(a: Candidate, b: Candidate): boolean {
  if (a.duration === null || b.duration === null) return true;
  return Math.abs(a.duration - b.duration) <= DEDUP_DURATION_SECONDS;
}

/** Ranks and deduplicates the hits of every provider that answered, in provider order. */
export function mergeHits(keyword: string, answers: ProviderHits[]): CatalogueItem[] {
  const candidates: Candidate[] = answers.flatMap((answer, provider) =>
    answer.list.map((item, position) => ({
      item,
      duration: answer.durations?.[position] ?? null,
      score: closeness(keyword, item),
      position,
      provider,
    })),
  );
  candidates.sort((a, b) => b.score - a.score || a.position - b.position || a.provider - b.provider);

  const kept: Candidate[] = [];
  const byAddress = new Set<string>();
  const byWork = new Map<string, Candidate[]>();
  for (const candidate of candidates) {
    const address = `${candidate.item.channel}:${candidate.item.url}`;
    if (byAddress.has(address)) continue;
    const work = `${compareText(candidate.item.artist)}\u0000${compareText(candidate.item.name)}`;
    const same = byWork.get(work) ?? [];
    if (same.some((other) => other.provider !== candidate.provider && sameRecording(other, candidate))) continue;
    byAddress.add(address);
    same.push(candidate);
    byWork.set(work, same);
    kept.push(candidate);
  }
  return kept.map((c) => c.item);
}
