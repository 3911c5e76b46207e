/**
 * The one cache primitive of the server (ADR 0016): values loaded on demand and kept per key,
 * named, capped by entries and by bytes, with counters the back office can show.
 *
 * - A value younger than `freshMs` is served as is (default: kept until dropped).
 * - Between `freshMs` and `staleMs` it is still served at once while one background load
 *   replaces it (stale-while-revalidate): no caller waits for a refresh, and a busy key costs
 *   one load per `freshMs`. A failed refresh keeps the old value (and is reported).
 * - Past `staleMs` (default: `freshMs`, i.e. no stale serving) the caller waits for a new load.
 * - Concurrent callers of a missing key share one load; a failed load is not kept.
 * - Past `maxEntries` or `maxBytes` the least recently used values go first. Every cache is
 *   bounded in bytes (ADR 0037): an entry's size is its key's length plus `sizeOf(value)`,
 *   measured when it arrives and again whenever it is served (a kept answer may grow, e.g. when
 *   it is compressed for one more encoding). `jsonBytes` is the estimate for plain data.
 * - Writers never call `delete`/`clear` by hand: the services that own a cache drop what a
 *   change event says has changed (server/events/).
 */
export interface CacheOptions<V> {
  name: string;
  maxEntries: number;
  /** Total size cap in bytes: keys plus `sizeOf` of every value. */
  maxBytes: number;
  /** A value's size in bytes (an honest estimate: `jsonBytes` for plain data). */
  sizeOf: (value: V) => number;
  freshMs?: number;
  staleMs?: number;
  /** A background refresh failed (the old value stays): for the log, so it is not silent. */
  onRefreshError?: (key: string, err: unknown) => void;
  now?: () => number;
}

export interface CacheStats {
  name: string;
  entries: number;
  bytes: number;
  maxEntries: number;
  maxBytes: number;
  hits: number;
  misses: number;
  refreshes: number;
  evictions: number;
  drops: number;
}

interface Entry<V> {
  loadedAt: number;
  value: Promise<V>;
  /** Set once the value has arrived. */
  settled?: V;
  bytes: number;
  refreshing: boolean;
}

export class Cache<V> {
  readonly name: string;
  private readonly entries = new Map<string, Entry<V>>();
  private readonly freshMs: number;
  private readonly staleMs: number;
  private readonly now: () => number;
  private totalBytes = 0;
  private counts = { hits: 0, misses: 0, refreshes: 0, evictions: 0, drops: 0 };

  constructor(private readonly options: CacheOptions<V>) {
    this.name = options.name;
    this.freshMs = options.freshMs ?? Number.POSITIVE_INFINITY;
    this.staleMs = Math.max(options.staleMs ?? this.freshMs, this.freshMs);
    this.now = options.now ?? Date.now;
  }

  get(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit) {
      const age = this.now() - hit.loadedAt;
      if (age <= this.staleMs) {
        this.counts.hits++;
        if (age > this.freshMs && !hit.refreshing) this.refresh(key, hit, load);
        // Most recently used goes last, so eviction takes the least recently used.
        this.entries.delete(key);
        this.entries.set(key, hit);
        if (hit.settled !== undefined) this.measure(key, hit);
        return hit.value;
      }
    }
    this.counts.misses++;
    return this.loadInto(key, load).value;
  }

  /**
   * The synchronous form of `get`, for values computed on the spot (no loads to share, no
   * stale serving): the kept value, or `compute()` kept for next time.
   */
  memo(key: string, compute: () => V): V {
    const hit = this.entries.get(key);
    if (hit?.settled !== undefined && this.now() - hit.loadedAt <= this.freshMs) {
      this.counts.hits++;
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.settled;
    }
    this.counts.misses++;
    if (hit) this.remove(key, hit);
    const value = compute();
    const entry: Entry<V> = { loadedAt: this.now(), value: Promise.resolve(value), settled: value, bytes: 0, refreshing: false };
    this.entries.set(key, entry);
    this.measure(key, entry);
    this.evict();
    return value;
  }

  /** The value kept for the key if it has arrived (not counted as a hit, never loads). */
  peek(key: string): V | undefined {
    return this.entries.get(key)?.settled;
  }

  /**
   * Whether `get` would answer the key without loading it anew: a value within its stale time,
   * or a load in flight (not counted, never loads, keeps the order of use).
   */
  has(key: string): boolean {
    const entry = this.entries.get(key);
    return entry !== undefined && this.now() - entry.loadedAt <= this.staleMs;
  }

  /**
   * Marks every kept value stale: each is still served, and its next request starts a
   * background refresh (for data that moved but is not wrong, such as a rebuilt chart).
   */
  markStale(): void {
    const past = this.now() - this.freshMs - 1;
    for (const entry of this.entries.values()) if (entry.loadedAt > past) entry.loadedAt = past;
  }

  /** Drops one key (the next get loads anew). */
  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.remove(key, entry);
    this.counts.drops++;
  }

  /** Drops every key the predicate picks (given the key and, once loaded, the value). */
  deleteWhere(pick: (key: string, value: V | undefined) => boolean): void {
    for (const [key, entry] of [...this.entries]) {
      if (pick(key, entry.settled)) {
        this.remove(key, entry);
        this.counts.drops++;
      }
    }
  }

  clear(): void {
    this.counts.drops += this.entries.size;
    this.entries.clear();
    this.totalBytes = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  stats(): CacheStats {
    return {
      name: this.name,
      entries: this.entries.size,
      bytes: this.totalBytes,
      maxEntries: this.options.maxEntries,
      maxBytes: this.options.maxBytes,
      ...this.counts,
    };
  }

  private loadInto(key: string, load: () => Promise<V>): Entry<V> {
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
    const entry: Entry<V> = { loadedAt: this.now(), value: load(), bytes: 0, refreshing: false };
    this.entries.set(key, entry);
    entry.value.then(
      (value) => {
        entry.settled = value;
        if (this.entries.get(key) === entry) this.measure(key, entry);
      },
      () => {
        if (this.entries.get(key) === entry) this.remove(key, entry);
      },
    );
    this.evict();
    return entry;
  }

  private refresh(key: string, stale: Entry<V>, load: () => Promise<V>) {
    stale.refreshing = true;
    this.counts.refreshes++;
    const started = this.now();
    load().then(
      (value) => {
        // A delete or clear meanwhile wins: this load may have read the old data.
        if (this.entries.get(key) !== stale) return;
        this.remove(key, stale);
        const entry: Entry<V> = { loadedAt: started, value: Promise.resolve(value), settled: value, bytes: 0, refreshing: false };
        this.entries.set(key, entry);
        this.measure(key, entry);
      },
      (err: unknown) => {
        stale.refreshing = false;
        this.options.onRefreshError?.(key, err);
      },
    );
  }

  private measure(key: string, entry: Entry<V>) {
    const { sizeOf, maxBytes } = this.options;
    const bytes = key.length + sizeOf(entry.settled as V);
    this.totalBytes += bytes - entry.bytes;
    entry.bytes = bytes;
    // A value larger than the whole cache is served but not kept.
    if (bytes > maxBytes) {
      this.remove(key, entry);
      this.counts.evictions++;
      return;
    }
    this.evict();
  }

  private evict() {
    const { maxEntries, maxBytes } = this.options;
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= maxEntries && this.totalBytes <= maxBytes) return;
      this.remove(key, entry);
      this.counts.evictions++;
    }
  }

  private remove(key: string, entry: Entry<V>) {
    this.entries.delete(key);
    this.totalBytes -= entry.bytes;
  }
}

/**
 * The caches of one app, by name: services create theirs here, so the back office (and tests)
 * can list every cache with its counters. One registry per `createServices`, never global.
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

  /** Drops every kept value: events may have been missed (Redis was away, ADR 0039). */
  clearAll(): void {
    for (const cache of this.caches.values()) cache.clear();
  }
}

const measured = new WeakMap<object, number>();

/**
 * The size estimate of plain data (rows, pages, lists): the UTF-8 bytes of its JSON, Maps and
 * Sets counted by their entries. Measured once per object: kept values are never changed in
 * place (one that grows, like a SharedAnswer, reports its own size instead).
 */
export function jsonBytes(value: unknown): number {
  if (value === undefined) return 0;
  if (value === null || typeof value !== "object") return Buffer.byteLength(String(value));
  let bytes = measured.get(value);
  if (bytes === undefined) {
    bytes = Buffer.byteLength(JSON.stringify(value, (_key, v: unknown) => (v instanceof Map || v instanceof Set ? [...v] : v)));
    measured.set(value, bytes);
  }
  return bytes;
}
