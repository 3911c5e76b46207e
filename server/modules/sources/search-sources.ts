import type { EventBus } from "../../events/bus.js";
import type { Cache, CacheRegistry } from "../../lib/cache.js";
import type { Clock } from "../../lib/clock.js";
import type { SearchProvider } from "../search/provider.js";
import type { CachedAnswer } from "../search/service.js";
import type { LiveSourceDirectory, SourceDirectory } from "./directory.js";
import { healthBoard, type HealthBoard, type HealthOptions } from "./health.js";
import { sourceProvider } from "./source-provider.js";

/** Repeated searches: 30 s, at most 1,000 answers and 16 MB (measured as UTF-8 JSON). */
export const SEARCH_CACHE = { freshMs: 30_000, maxEntries: 1_000, maxBytes: 16 * 1024 * 1024 } as const;

export interface ExternalSearchOptions {
  /** Asked at each search: sources come, go and are repaired while the site runs. */
  directory: SourceDirectory & Partial<Pick<LiveSourceDirectory, "onChange">>;
  caches: CacheRegistry;
  bus: EventBus;
  clock: Clock;
  logger: NonNullable<HealthOptions["logger"]>;
  /** Breaker settings (default 5 failures, 30 s cool-down). */
  breaker?: Pick<HealthOptions, "failureThreshold" | "coolDownMs">;
}

/**
 * The external sources as search providers, each behind its health and circuit breaker, and the
 * short cache of repeated searches. The providers are made from the directory at each search (a
 * search in flight keeps the adapter it started with); while no source is in use there is no
 * cache: the local catalogue alone answers from the database as before.
 */
export function externalSearch({ directory, caches, bus, clock, logger, breaker }: ExternalSearchOptions): {
  providers: () => SearchProvider[];
  health: HealthBoard;
  cache: () => Cache<CachedAnswer> | undefined;
} {
  const now = () => clock().getTime();
  const health = healthBoard({ ...breaker, now, logger, sources: () => directory.list() });
  const cache = caches.create<CachedAnswer>({
    name: "search",
    ...SEARCH_CACHE,
    sizeOf: (answer) => Buffer.byteLength(JSON.stringify(answer.result)),
    now,
  });
  // Local hits change with the items and the sites' names and logos: such a write drops the kept
  // answers (30 s is short anyway). Counters and charts do not change what a search finds.
  bus.subscribe((event) => {
    if (event.type === "items" || event.type === "sources") cache.clear();
  });
  // The directory rebuilds after the event: answers kept meanwhile came from the old sources.
  directory.onChange?.((previous, next) => {
    cache.clear();
    const before = new Map(previous.map((e) => [e.code, e.adapter]));
    for (const entry of next) {
      const adapter = before.get(entry.code);
      if (adapter && adapter !== entry.adapter) health.reset(entry.code);
    }
  });
  return {
    providers: () => directory.list().map((entry) => sourceProvider(entry, health.track(entry.code, entry.name))),
    health,
    cache: () => (directory.list().length > 0 ? cache : undefined),
  };
}
