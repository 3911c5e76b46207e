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
 * A provider whose list is `ranked` (the local catalogue, which also ranks pinyin and initials
 * and knows popularity) keeps its own order; any other list is first sorted by score (stable, so
 * the site's order stays among equals). The lists are then merged head by head: the head with the
 * highest score goes next; between equal scores the one nearer the top of its own list, then the
 * provider listed first (local first, then the sources in their configured order). So the local
 * order is never changed, equal hits interleave, and no source buries another.
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
  ranked?: boolean;
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

/** Merges ordered lists: each step takes the best head (score, then position, then provider). */
function mergeHeads(lists: Candidate[][]): Candidate[] {
  const next = lists.map(() => 0);
  const merged: Candidate[] = [];
  for (;;) {
    let best: Candidate | undefined;
    for (let p = 0; p < lists.length; p++) {
      const head = lists[p]![next[p]!];
      if (head && (!best || head.score > best.score || (head.score === best.score && head.position < best.position))) best = head;
    }
    if (!best) return merged;
    merged.push(best);
    next[best.provider] = next[best.provider]! + 1;
  }
}

/** Ranks and deduplicates the hits of every provider that answered, in provider order. */
export function mergeHits(keyword: string, answers: ProviderHits[]): CatalogueItem[] {
  const lists: Candidate[][] = answers.map((answer, provider) => {
    const list = answer.list.map((item, i) => ({ item, duration: answer.durations?.[i] ?? null, score: closeness(keyword, item), position: 0, provider }));
    if (!answer.ranked) list.sort((a, b) => b.score - a.score);
    list.forEach((c, position) => (c.position = position));
    return list;
  });
  const candidates = mergeHeads(lists);

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
