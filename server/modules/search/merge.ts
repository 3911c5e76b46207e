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

/**
 * What has been kept so far, and whether a candidate duplicates it (the rules above): one
 * place for the merged answer (fed in merged order) and the stream (fed source by source).
 */
class Kept {
  private readonly byAddress = new Set<string>();
  private readonly byWork = new Map<string, Candidate[]>();

  /** Keeps the candidate unless it repeats one already kept; true when kept. */
  add(candidate: Candidate): boolean {
    const address = `${candidate.item.channel}:${candidate.item.url}`;
    if (this.byAddress.has(address)) return false;
    const work = `${compareText(candidate.item.artist)}\u0000${compareText(candidate.item.name)}`;
    const same = this.byWork.get(work) ?? [];
    if (same.some((other) => other.provider !== candidate.provider && sameRecording(other, candidate))) return false;
    this.byAddress.add(address);
    same.push(candidate);
    this.byWork.set(work, same);
    return true;
  }
}

/** One provider's hits as candidates, in its own order when ranked, else by score (stable). */
function candidatesOf(keyword: string, answer: ProviderHits, provider: number): Candidate[] {
  const list = answer.list.map((item, i) => ({ item, duration: answer.durations?.[i] ?? null, score: closeness(keyword, item), position: 0, provider }));
  if (!answer.ranked) list.sort((a, b) => b.score - a.score);
  list.forEach((c, position) => (c.position = position));
  return list;
}

/** Ranks and deduplicates the hits of every provider that answered, in provider order. */
export function mergeHits(keyword: string, answers: ProviderHits[]): CatalogueItem[] {
  const kept = new Kept();
  return mergeHeads(answers.map((answer, provider) => candidatesOf(keyword, answer, provider)))
    .filter((c) => kept.add(c))
    .map((c) => c.item);
}

/**
 * The streamed search (ADR 0050): each source's hits as it answers, to be shown after those
 * already shown. Its own list is ranked as in the merge; hits that repeat one shown before
 * (same address, or the same work from another source) are left out, so what is on screen
 * never moves and never repeats.
 */
export function appendingMerge(keyword: string) {
  const kept = new Kept();
  let provider = 0;
  return (answer: ProviderHits): CatalogueItem[] =>
    candidatesOf(keyword, answer, provider++)
      .filter((c) => kept.add(c))
      .map((c) => c.item);
}
