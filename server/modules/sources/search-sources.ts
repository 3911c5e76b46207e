import type { EventBus } from "../../events/bus.js";
import type { Cache, CacheRegistry } from "../../lib/cache.js";
import type { Clock } from "../../lib/clock.js";
import type { SearchProvider } from "../search/provider.js";
import type { CachedAnswer } from "../search/service.js";
import { healthBoard, type HealthBoard, type HealthOptions } from "./health.js";
import { sourceProvider, type SourceAdapterEntry } from "./source-provider.js";

/** Repeated searches: 30 s, at most 1,000 answers and 16 MB (measured as UTF-8 JSON). */
export const SEARCH_CACHE = { freshMs: 30_000, maxEntries: 1_000, maxBytes: 16 * 1024 * 1024 } as const;

export interface ExternalSearchOptions {
  sourceAdapters: SourceAdapterEntry[];
  caches: CacheRegistry;
  bus: EventBus;
  clock: Clock;
  logger: NonNullable<HealthOptions["logger"]>;
  /** Breaker settings (default 5 failures, 30 s cool-down). */
  breaker?: Pick<HealthOptions, "failureThreshold" | "coolDownMs">;
}

/**
 * The external sources as search providers, each behind its health and circuit breaker, and the
 * short cache of repeated searches. With no source configured there is no cache: the local
 * catalogue alone answers from the database as before.
 */
export function externalSearch({ sourceAdapters, caches, bus, clock, logger, breaker }: ExternalSearchOptions): {
  providers: SearchProvider[];
  health: HealthBoard;
  cache: Cache<CachedAnswer> | undefined;
} {
  const now = () => clock().getTime();
  const health = healthBoard({ ...breaker, now, logger });
  const providers = sourceAdapters.map((entry) => sourceProvider(entry, health.track(entry.code, entry.name)));
  if (providers.length === 0) return { providers, health, cache: undefined };
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
  return { providers, health, cache };
}
