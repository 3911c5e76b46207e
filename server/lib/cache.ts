import { AsyncLocalStorage } from "node:async_hooks";
import { LRUCache } from "lru-cache";

export { jsonBytes } from "./json-bytes.js";
// The registry of an app's caches (it only calls `new Cache` at run time: the import cycle is harmless).
export { CacheRegistry, type TagPlan } from "./cache-registry.js";

/**
 * The one cache primitive of the server (ADR 0016, ADR 0054): values loaded on demand and kept
 * per key, named, capped by entries and by bytes, dropped by tags, with counters the back office
 * and /metrics show. lru-cache keeps the entries (order of use, entry and byte caps); this class
 * adds freshness, shared loads and tags.
 *
 * - A value younger than `freshMs` is served as is (default: kept until dropped).
 * - Between `freshMs` and `staleMs` it is still served at once while one background load
 *   replaces it (stale-while-revalidate): no caller waits for a refresh, and a busy key costs
 *   one load per `freshMs`. A failed refresh keeps the old value (and is reported).
 * - Past `staleMs` (default: `freshMs`, i.e. no stale serving) the caller waits for a new load.
 * - Concurrent callers of a missing key share one load; a failed load is not kept.
 * - Past `maxEntries` or `maxBytes` the least recently used values go first. An entry's size is
 *   its key's length plus `sizeOf(value)`, measured when it arrives and again whenever it is
 *   served (a kept answer may grow, e.g. compressed for one more encoding).
 * - Tags (cache-tags.ts) say what a value was built from: those of `tagsOf(value)`, those added
 *   by `tagWith` during its load, and those of every cached value its load read (gathered through
 *   AsyncLocalStorage, so a page carries the tags of the answers it was rendered from). A change
 *   event names tags; the registry drops every value carrying one (a load still in flight, whose
 *   tags are not known yet, drops on every event: it may have read the old data).
 */
export type Tag = string;

export interface CacheOptions<V> {
  name: string;
  maxEntries: number;
  /** Total size cap in bytes: keys plus `sizeOf` of every value. */
  maxBytes: number;
  /** A value's size in bytes (an honest estimate: `jsonBytes` for plain data). */
  sizeOf: (value: V) => number;
  freshMs?: number;
  staleMs?: number;
  /** A value's own fresh time (e.g. an address that expires), instead of `freshMs`; <= 0: not kept. */
  freshFor?: (value: V) => number;
  /** What a value shows, besides the tags of the cached values its load read. */
  tagsOf?: (value: V, key: string) => Iterable<Tag>;
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
  done: boolean;
  settled?: V;
  bytes: number;
  refreshing: boolean;
  freshMs: number;
  staleMs: number;
  /** Known once the value has arrived. */
  tags?: ReadonlySet<Tag>;
}

/** The tags gathered by the load running now. */
const gathering = new AsyncLocalStorage<Set<Tag>>();

/** Adds tags to the value being loaded now: what it shows that no cache read says. */
export function tagWith(...tags: Tag[]): void {
  const into = gathering.getStore();
  if (into) for (const tag of tags) into.add(tag);
}

/** Runs `fn` as a load, gathering the tags of every cached value it reads. */
export function gatherTags<T>(fn: () => T): { value: T; tags: Set<Tag> } {
  const tags = new Set<Tag>();
  return { value: gathering.run(tags, fn), tags };
}

export class Cache<V> {
  readonly name: string;
  private readonly lru: LRUCache<string, Entry<V>>;
  /** tag → the entries carrying it (by key; the entry itself, so a replaced one is not mistaken). */
  private readonly byTag = new Map<Tag, Map<string, Entry<V>>>();
  /** The tags dropped while each background refresh runs: one that read them is not kept. */
  private readonly refreshes = new Set<Set<Tag>>();
  /** First loads in flight, by key (their tags are not known yet). */
  private readonly loading = new Map<string, Entry<V>>();
  private readonly freshMs: number;
  private readonly staleMs: number | undefined;
  private readonly now: () => number;
  private counts = { hits: 0, misses: 0, refreshes: 0, evictions: 0, drops: 0 };

  constructor(private readonly options: CacheOptions<V>) {
    this.name = options.name;
    this.freshMs = options.freshMs ?? Number.POSITIVE_INFINITY;
    this.staleMs = options.staleMs;
    this.now = options.now ?? Date.now;
    this.lru = new LRUCache<string, Entry<V>>({
      max: options.maxEntries,
      maxSize: options.maxBytes,
      dispose: (entry, key, reason) => {
        if (reason === "evict") this.counts.evictions++;
        this.unindex(key, entry);
      },
    });
  }

  get(key: string, load: () => Promise<V>): Promise<V> {
    const into = gathering.getStore();
    const hit = this.lru.get(key);
    if (hit) {
      const age = this.now() - hit.loadedAt;
      if (age <= hit.staleMs) {
        this.counts.hits++;
        if (age > hit.freshMs && !hit.refreshing) this.refresh(key, hit, load);
        if (hit.done) {
          this.measure(key, hit);
          pass(hit, into);
          return hit.value;
        }
        return into ? hit.value.then((v) => (pass(hit, into), v)) : hit.value;
      }
    }
    this.counts.misses++;
    const entry = this.loadInto(key, load);
    return into ? entry.value.then((v) => (pass(entry, into), v)) : entry.value;
  }

  /**
   * The value if it has arrived and is fresh, counted as a hit; else undefined, counting nothing
   * (the caller then goes through `get`, which loads, or serves stale and refreshes). For a
   * synchronous fast path that must not start loads (server/web/kept-lane.ts).
   */
  getFresh(key: string): V | undefined {
    const hit = this.lru.get(key);
    if (!hit?.done || this.now() - hit.loadedAt > hit.freshMs) return undefined;
    this.counts.hits++;
    this.measure(key, hit);
    return hit.settled;
  }

  /**
   * The synchronous form of `get`, for values computed on the spot (no loads to share, no
   * stale serving): the kept value, or `compute()` kept for next time.
   */
  memo(key: string, compute: () => V): V {
    const into = gathering.getStore();
    const hit = this.lru.get(key);
    if (hit?.done && this.now() - hit.loadedAt <= hit.freshMs) {
      this.counts.hits++;
      pass(hit, into);
      return hit.settled as V;
    }
    this.counts.misses++;
    if (hit) this.lru.delete(key);
    const { value, tags } = gatherTags(compute);
    const entry = this.entry(Promise.resolve(value));
    this.lru.set(key, entry, { size: key.length + 1 });
    this.settle(key, entry, value, tags);
    pass(entry, into);
    return value;
  }

  /**
   * Keeps a value got elsewhere (a load that must not be shared: it runs under one caller's
   * abort signal). Counted as a miss: `peek` was the read.
   */
  set(key: string, value: V): void {
    this.counts.misses++;
    this.lru.delete(key);
    const entry = this.entry(Promise.resolve(value));
    this.lru.set(key, entry, { size: key.length + 1 });
    this.settle(key, entry, value, new Set());
  }

  /** The value kept for the key if it has arrived (not counted as a hit, never loads). */
  peek(key: string): V | undefined {
    return this.lru.peek(key)?.settled;
  }

  /**
   * Whether `get` would answer the key without loading it anew: a value within its stale time,
   * or a load in flight (not counted, never loads, keeps the order of use).
   */
  has(key: string): boolean {
    const entry = this.lru.peek(key);
    return entry !== undefined && this.now() - entry.loadedAt <= entry.staleMs;
  }

  /** Drops one key (the next get loads anew). */
  delete(key: string): void {
    if (this.lru.delete(key)) this.counts.drops++;
  }

  /** Drops every value carrying one of the tags, and every load in flight; returns how many. */
  dropTags(named: Iterable<Tag>): number {
    const tags = [...named];
    const doomed = new Map<string, Entry<V>>(this.loading);
    for (const tag of tags) for (const [key, entry] of this.byTag.get(tag) ?? []) doomed.set(key, entry);
    for (const missed of this.refreshes) for (const tag of tags) missed.add(tag);
    let dropped = 0;
    for (const [key, entry] of doomed) {
      if (this.lru.peek(key) !== entry) continue;
      this.lru.delete(key);
      dropped++;
    }
    this.counts.drops += dropped;
    return dropped;
  }

  /**
   * Marks every value carrying one of the tags stale: each is still served, and its next request
   * starts a background refresh (for data that moved but is not wrong, such as a rebuilt chart).
   */
  staleTags(tags: Iterable<Tag>): void {
    for (const tag of tags) {
      for (const entry of this.byTag.get(tag)?.values() ?? []) {
        const past = this.now() - entry.freshMs - 1;
        if (entry.loadedAt > past) entry.loadedAt = past;
      }
    }
  }

  clear(): void {
    this.counts.drops += this.lru.size;
    this.lru.clear();
  }

  get size(): number {
    return this.lru.size;
  }

  /** The tags of the value kept for the key (for tests and the back office). */
  tagsOf(key: string): ReadonlySet<Tag> | undefined {
    return this.lru.peek(key)?.tags;
  }

  stats(): CacheStats {
    return {
      name: this.name,
      entries: this.lru.size,
      bytes: this.lru.calculatedSize,
      maxEntries: this.options.maxEntries,
      maxBytes: this.options.maxBytes,
      ...this.counts,
    };
  }

  private entry(value: Promise<V>, loadedAt = this.now()): Entry<V> {
    const freshMs = this.freshMs;
    return { loadedAt, value, done: false, bytes: 0, refreshing: false, freshMs, staleMs: Math.max(this.staleMs ?? freshMs, freshMs) };
  }

  private loadInto(key: string, load: () => Promise<V>): Entry<V> {
    this.lru.delete(key);
    const { value, tags } = gatherTags(load);
    const entry = this.entry(value);
    this.lru.set(key, entry, { size: key.length + 1 });
    this.loading.set(key, entry);
    const done = () => {
      if (this.loading.get(key) === entry) this.loading.delete(key);
    };
    value.then(
      (v) => {
        done();
        this.settle(key, entry, v, tags);
      },
      () => {
        done();
        if (this.lru.peek(key) === entry) this.lru.delete(key);
      },
    );
    return entry;
  }

  private refresh(key: string, stale: Entry<V>, load: () => Promise<V>) {
    stale.refreshing = true;
    this.counts.refreshes++;
    const started = this.now();
    const { value, tags } = gatherTags(load);
    const missed = new Set<Tag>();
    this.refreshes.add(missed);
    void value.finally(() => this.refreshes.delete(missed)).catch(() => undefined);
    value.then(
      (v) => {
        // A drop meanwhile wins: this load may have read the old data. So does a drop of a tag
        // this load turns out to carry (the stale value did not: it was not dropped).
        if (this.lru.peek(key) !== stale) return;
        for (const tag of this.options.tagsOf?.(v, key) ?? []) tags.add(tag);
        if ([...tags].some((tag) => missed.has(tag))) {
          stale.refreshing = false;
          return;
        }
        this.lru.delete(key);
        const entry = this.entry(Promise.resolve(v), started);
        this.lru.set(key, entry, { size: key.length + 1 });
        this.settle(key, entry, v, tags);
      },
      (err: unknown) => {
        stale.refreshing = false;
        this.options.onRefreshError?.(key, err);
      },
    );
  }

  /** The value arrived: its tags and own fresh time are known, its size measured. */
  private settle(key: string, entry: Entry<V>, value: V, gathered: Set<Tag>) {
    entry.settled = value;
    entry.done = true;
    for (const tag of this.options.tagsOf?.(value, key) ?? []) gathered.add(tag);
    // A copy: background work the load started (and did not await) may still add to `gathered`.
    entry.tags = new Set(gathered);
    const own = this.options.freshFor?.(value);
    if (own !== undefined) {
      entry.freshMs = own;
      entry.staleMs = Math.max(this.staleMs ?? own, own);
    }
    if (this.lru.peek(key) !== entry) return;
    if (own !== undefined && own <= 0) {
      this.lru.delete(key);
      return;
    }
    entry.bytes = -1; // measured and indexed now, whatever its size
    this.measure(key, entry);
  }

  private measure(key: string, entry: Entry<V>) {
    const bytes = key.length + this.options.sizeOf(entry.settled as V);
    if (bytes === entry.bytes) return;
    entry.bytes = bytes;
    // A value larger than the whole cache is served but not kept.
    if (bytes > this.options.maxBytes) {
      this.lru.delete(key);
      this.counts.evictions++;
      return;
    }
    // Set anew (lru-cache takes a new size only with a new value): the least recently used go.
    this.lru.delete(key);
    this.lru.set(key, entry, { size: Math.max(1, bytes) });
    if (this.lru.peek(key) === entry) this.index(key, entry);
  }

  private index(key: string, entry: Entry<V>) {
    for (const tag of entry.tags ?? []) {
      let keys = this.byTag.get(tag);
      if (!keys) this.byTag.set(tag, (keys = new Map()));
      keys.set(key, entry);
    }
  }

  private unindex(key: string, entry: Entry<V>) {
    for (const tag of entry.tags ?? []) {
      const keys = this.byTag.get(tag);
      if (keys?.get(key) !== entry) continue;
      keys.delete(key);
      if (keys.size === 0) this.byTag.delete(tag);
    }
  }
}

function pass<V>(entry: Entry<V>, into: Set<Tag> | undefined) {
  if (into && entry.tags) for (const tag of entry.tags) into.add(tag);
}
