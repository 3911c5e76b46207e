import type { AppDatabase, DbLogger } from "../db/open.js";
import { type EventBus, inProcessBus } from "../events/bus.js";
import { type RelayedBus, redisRelayedBus } from "../events/redis-bus.js";
import { type Cache, CacheRegistry } from "../lib/cache.js";
import { followEvents } from "../lib/cache-tags.js";
import { byMinute } from "../lib/china-day.js";
import type { Clock } from "../lib/clock.js";
import { memoryEphemeralStore } from "../lib/ephemeral-store.js";
import type { LeaderLease } from "../lib/leases.js";
import type { RedisLink } from "../lib/redis.js";
import { redisEphemeralStore } from "../lib/redis-ephemeral-store.js";
import { auditService } from "../modules/audit/service.js";
import { catalogueWriteService } from "../modules/catalogue-write/service.js";
import { pinyinOfRun } from "../modules/search/search-text.js";
import { siteSettingsService } from "../modules/site-settings/service.js";
import { pwaService } from "../modules/pwa/service.js";

export interface CoreInputs {
  db: AppDatabase;
  logger: Pick<DbLogger, "warn" | "error" | "info" | "debug">;
  bus?: EventBus;
  redis?: RedisLink;
  clock: Clock;
  lease: LeaderLease;
}

/**
 * What every other area takes: the change-event bus (relayed through Redis when it is set), the
 * registry of kept values following it, the catalogue's writes, the audit trail, the ephemeral
 * store and the site's settings (ADR 0058: built first, from the options only).
 */
export function coreServices({ db, logger, bus: givenBus, redis, clock, lease }: CoreInputs) {
  const onListenerError = (err: unknown, event: { type: string }) => logger.error({ err, event: event.type }, "change listener failed");
  // Events may have been missed while Redis was away: what follows the bus starts again. The
  // areas built later say what they do then (`onResync`); run in the order they were added.
  const resyncs: (() => void)[] = [];
  const onResync = (listener: () => void) => void resyncs.push(listener);
  const relay: RelayedBus | undefined =
    redis && !givenBus ? redisRelayedBus({ link: redis, onListenerError, onResync: () => resyncs.forEach((run) => run()), logger }) : undefined;
  const bus = givenBus ?? relay ?? inProcessBus(onListenerError);
  // A kept answer whose background refresh fails is still served: say so in the log.
  const caches = new CacheRegistry({ onRefreshError: (key, err) => logger.warn({ err, key }, "kept answer refresh failed") });
  // Every kept answer goes first (the sources are re-read after: sourceServices).
  onResync(() => caches.clearAll());
  // The first listener: every cache drops by the event's tags (cache-tags.ts) before any other
  // listener (the pre-render) runs, here and on every instance the event is relayed to.
  followEvents(caches, bus);
  // Memos of pure computations (module-level, no data in them; ADR 0058): listed for their counters.
  caches.adopt(pinyinOfRun as Cache<unknown>);
  caches.adopt(byMinute as Cache<unknown>);
  const writes = catalogueWriteService(db, bus);
  const audit = auditService(db);
  const siteSettings = siteSettingsService(db, { caches, bus, audit });
  // Captcha answers, login failures, code throttles: shared by every instance when Redis is set.
  const ephemeral = redis ? redisEphemeralStore(redis) : memoryEphemeralStore({ clock });
  // The installable site's manifest (named by the settings), service worker and offline page.
  const pwa = pwaService({ siteSettings });
  return { bus, relay, onResync, clock, leader: lease, caches, writes, audit, siteSettings, pwa, ephemeral };
}

export type CoreServices = ReturnType<typeof coreServices>;
