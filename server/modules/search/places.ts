import type { CatalogueItem, HitPlace } from "@contracts/catalogue-item";

/**
 * Where one hit can be played from, and which place starts fastest (ADR 0052).
 *
 * A place's start cost is a number, lower first: our own catalogue (`local`) is 0 (our media, no
 * site to ask); an external source costs its measured median latency (health.ts: searches and
 * play resolutions share one window, and resolving is what a play waits for); a source not yet
 * measured comes after every measured one; a source whose breaker is open (or half-open, still
 * unproven) comes last. Equal costs keep the provider order (local, then the configured order).
 */
export type StartCost = (source: string) => number;

/** After any real median: a source that has not answered since the start is an unknown. */
const UNMEASURED_MS = 60_000;
/** Past everything else: a resting source is the last place to try. */
const RESTING = 1e9;

export interface SourceSpeed {
  code: string;
  state: "closed" | "open" | "half-open";
  p50Ms: number | null;
}

/** The start costs of a search, from the sources' health as it is when the search starts. */
export function startCosts(speeds: readonly SourceSpeed[]): StartCost {
  const bySource = new Map(speeds.map((s) => [s.code, s]));
  return (source) => {
    if (source === "local") return 0;
    const speed = bySource.get(source);
    if (!speed) return UNMEASURED_MS;
    const measured = speed.p50Ms ?? UNMEASURED_MS;
    return speed.state === "closed" ? measured : RESTING + measured;
  };
}

/** Every place costs the same: provider order decides (tests, and a search without sources). */
export const inProviderOrder: StartCost = () => 0;

export function placeOf(item: CatalogueItem): HitPlace {
  const place: HitPlace = { source: item.source, id: item.id, website: item.website, websitelogo: item.websitelogo, palyurl: item.palyurl, url: item.url };
  if (item.mimeType) place.mimeType = item.mimeType;
  return place;
}

/** One copy of a hit and the provider (its index in the search) that found it. */
export interface Copy {
  item: CatalogueItem;
  provider: number;
}

/** The copies fastest first (stable: equal costs keep provider order). */
export function bySpeed<T extends Copy>(copies: readonly T[], cost: StartCost): T[] {
  return [...copies].sort((a, b) => cost(a.item.source) - cost(b.item.source) || a.provider - b.provider);
}

/**
 * A merged hit: the fastest copy's own item (its id, address, site and player address belong
 * together), with every place when there is more than one.
 */
export function hitOf(copies: readonly Copy[], cost: StartCost): CatalogueItem {
  const ordered = bySpeed(copies, cost);
  const first = ordered[0]!.item;
  return ordered.length > 1 ? { ...first, places: ordered.map((c) => placeOf(c.item)) } : first;
}
