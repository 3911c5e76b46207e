import type { CatalogueItem, HitPlace } from "@contracts/catalogue-item";
import { bySpeed, hitOf, inProviderOrder, placeOf, type StartCost } from "./places.js";
import { normalize } from "./search-text.js";

/**
 * How the answers of several providers become one list (issue 11, "Search across sources";
 * ADR 0052, "ranking across sources").
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
 * and knows popularity) keeps its own order; any other list is first sorted by score, then by
 * the site's own play count where it reports one (`view_count` > 0), stable, so the site's order
 * stays among equals. The lists are then merged head by head: the head with the highest score
 * goes next; between equal scores the one nearer the top of its own list (so popularity counts
 * as a rank within its own site: sites' counts are not comparable), then the provider listed
 * first (local first, then the sources in their configured order). So the local order is never
 * changed, equal hits interleave, and no source buries another.
 *
 * Duplicates across sources: two hits are one work when their normalised artist and title are
 * equal and their durations, when both are known, are within DEDUP_DURATION_SECONDS. The work is
 * one hit, ranked where its best copy ranks (its catalogue copy's rank when it has one), with a place per source (places.ts: the fastest to
 * start first, and the hit's own fields those of that place). Within one provider equal titles
 * stay apart (its own duplicates are its business); hits of one site with the same address are
 * one in any case.
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

/** One work as kept: its row (the first-ranked copy) and every copy, one per provider. */
interface Work {
  row: Candidate;
  copies: Candidate[];
}

/**
 * What has been kept so far, and whether a candidate repeats it (the rules above): one place
 * for the merged answer (fed in merged order) and the stream (fed source by source).
 */
class Kept {
  private readonly byAddress = new Set<string>();
  private readonly byWork = new Map<string, Work[]>();

  /** A new work, the work it is one more place of, or null when its address was kept already. */
  add(candidate: Candidate): { work: Work; joined: boolean } | null {
    const address = `${candidate.item.channel}:${candidate.item.url}`;
    if (this.byAddress.has(address)) return null;
    this.byAddress.add(address);
    const key = `${compareText(candidate.item.artist)}\u0000${compareText(candidate.item.name)}`;
    const same = this.byWork.get(key) ?? [];
    // One place per provider: a provider's second copy of a work is a hit of its own.
    const work = same.find((w) => w.copies.every((c) => c.provider !== candidate.provider) && w.copies.some((c) => sameRecording(c, candidate)));
    if (work) {
      work.copies.push(candidate);
      return { work, joined: true };
    }
    const fresh = { row: candidate, copies: [candidate] };
    same.push(fresh);
    this.byWork.set(key, same);
    return { work: fresh, joined: false };
  }
}

/** One provider's hits as candidates, in its own order when ranked, else by score then play count (stable). */
function candidatesOf(keyword: string, answer: ProviderHits, provider: number): Candidate[] {
  const list = answer.list.map((item, i) => ({ item, duration: answer.durations?.[i] ?? null, score: closeness(keyword, item), position: 0, provider }));
  if (!answer.ranked) list.sort((a, b) => b.score - a.score || popularity(b.item) - popularity(a.item));
  list.forEach((c, position) => (c.position = position));
  return list;
}

/** A site's play count where it reports one; 0 (unknown) keeps the site's order. */
const popularity = (item: CatalogueItem) => Math.max(0, item.view_count || 0);

/**
 * Ranks the hits of every provider that answered (in provider order), one hit per work. A work
 * ranks where its first copy ranks, or where its copy from a ranked list (the catalogue) does:
 * that list's order holds even when an external copy of one of its items ranks higher.
 */
export function mergeHits(keyword: string, answers: ProviderHits[], cost: StartCost = inProviderOrder): CatalogueItem[] {
  const kept = new Kept();
  const rankAt = new Map<Work, number>();
  mergeHeads(answers.map((answer, provider) => candidatesOf(keyword, answer, provider))).forEach((candidate, i) => {
    const added = kept.add(candidate);
    if (added && (!added.joined || answers[candidate.provider]!.ranked)) rankAt.set(added.work, i);
  });
  return [...rankAt.entries()].sort((a, b) => a[1] - b[1]).map(([work]) => hitOf(work.copies, cost));
}

/** A shown hit that a later source also found: its places now, fastest first. */
export interface PlacesUpdate {
  source: string;
  id: CatalogueItem["id"];
  places: HitPlace[];
}

/**
 * The streamed search (ADR 0050, 0052): each source's hits as it answers, to be shown after
 * those already shown. Its own list is ranked as in the merge; a hit of a work shown before is
 * not a row again but one more place of the shown row (`places`), so what is on screen never
 * moves and never repeats.
 */
export function appendingMerge(keyword: string, cost: StartCost = inProviderOrder) {
  const kept = new Kept();
  let provider = 0;
  return (answer: ProviderHits): { list: CatalogueItem[]; places: PlacesUpdate[] } => {
    const list: CatalogueItem[] = [];
    const places: PlacesUpdate[] = [];
    for (const candidate of candidatesOf(keyword, answer, provider++)) {
      const added = kept.add(candidate);
      if (!added) continue;
      if (!added.joined) list.push(candidate.item);
      else {
        const row = added.work.row.item;
        places.push({ source: row.source, id: row.id, places: bySpeed(added.work.copies, cost).map((c) => placeOf(c.item)) });
      }
    }
    return { list, places };
  };
}
