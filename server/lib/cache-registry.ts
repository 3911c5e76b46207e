import { Cache, type CacheOptions, type CacheStats, type Tag } from "./cache.js";

/** What one change event does to kept values (cache-tags.ts makes it). */
export interface TagPlan {
  /** Values carrying one of these are dropped: the next request loads them anew. */
  drop: Tag[];
  /** Values carrying one of these are served stale and refreshed in the background. */
  stale: Tag[];
}

/**
 * The caches of one app, by name: services create theirs here, so the back office (and tests)
 * can list every cache with its counters, and a change event drops by tags across all of them.
 * One registry per `createServices`, never global.
 */
export class CacheRegistry {
  private readonly caches = new Map<string, Cache<unknown>>();

  constructor(private readonly defaults: Pick<CacheOptions<unknown>, "onRefreshError" | "now"> = {}) {}

  create<V>(options: CacheOptions<V>): Cache<V> {
    if (this.caches.has(options.name)) throw new Error(`cache ${options.name} exists already`);
    const cache = new Cache<V>({
      onRefreshError: this.defaults.onRefreshError,
      now: this.defaults.now,
      ...options,
    });
    this.caches.set(options.name, cache as Cache<unknown>);
    return cache;
  }

  stats(): CacheStats[] {
    return [...this.caches.values()].map((c) => c.stats());
  }

  get(name: string): Cache<unknown> | undefined {
    return this.caches.get(name);
  }

  /**
   * Lists a module's memo of a pure computation (one per process, shared by the apps of a test
   * run) with this registry's caches, for its counters: no event concerns it.
   */
  adopt(cache: Cache<unknown>): void {
    if (!this.caches.has(cache.name)) this.caches.set(cache.name, cache);
  }

  /** Applies one event's plan to every cache: drops first, then marks stale what is left. */
  apply(plan: TagPlan): void {
    for (const cache of this.caches.values()) {
      if (plan.drop.length > 0) cache.dropTags(plan.drop);
      if (plan.stale.length > 0) cache.staleTags(plan.stale);
    }
  }

  /**
   * Drops by tags on every event of the bus, the event's tags as `planOf` says (cache-tags.ts):
   * the only subscriber that invalidates. Events from other instances arrive on the same bus
   * (redis-bus.ts), so their drops run here too.
   */
  follow<E>(bus: { subscribe(listener: (event: E) => void): () => void }, planOf: (event: E) => TagPlan): () => void {
    return bus.subscribe((event) => this.apply(planOf(event)));
  }

  /** Drops every kept value: events may have been missed (Redis was away, ADR 0039). */
  clearAll(): void {
    for (const cache of this.caches.values()) cache.clear();
  }
}
