/**
 * Answers kept per key until they change (ADR 0012), for data that only this site writes:
 * a category page, a suite's details.
 *
 * - A value younger than `freshMs` is served as is.
 * - An older one, up to `maxStaleMs`, is still served at once while one background load
 *   replaces it (stale-while-revalidate): no visitor waits for a refresh, and a busy key costs
 *   one query per `freshMs`, not one per request. A failed refresh keeps the old value.
 * - Older than `maxStaleMs` (a key nobody asked for in a long time), the caller waits for a
 *   new load, so an answer is never older than that.
 * - At most `maxEntries` are kept; the least recently used goes first.
 * - `forget(key)` and `invalidate()` are for the writers: the next request loads anew.
 *
 * Concurrent callers of a missing key share one load; a failed first load is not kept.
 */
export interface AnswerCacheOptions {
  freshMs: number;
  maxStaleMs: number;
  maxEntries: number;
  /** A background refresh failed (the old value stays): for the log, so it is not silent. */
  onRefreshError?: (key: string, err: unknown) => void;
}

interface Entry<T> {
  loadedAt: number;
  value: Promise<T>;
  refreshing: boolean;
}

export function answerCache<T>(options: AnswerCacheOptions, now: () => number = Date.now) {
  const { freshMs, maxStaleMs, maxEntries, onRefreshError } = options;
  const entries = new Map<string, Entry<T>>();

  function store(key: string, entry: Entry<T>) {
    entries.delete(key);
    entries.set(key, entry);
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
  }

  function loadInto(key: string, load: () => Promise<T>): Entry<T> {
    const entry: Entry<T> = { loadedAt: now(), value: load(), refreshing: false };
    entry.value.catch(() => {
      if (entries.get(key) === entry) entries.delete(key);
    });
    store(key, entry);
    return entry;
  }

  function refresh(key: string, stale: Entry<T>, load: () => Promise<T>) {
    stale.refreshing = true;
    const started = now();
    load().then(
      (value) => {
        // An invalidate() or forget() meanwhile wins: this load may have read the old data.
        if (entries.get(key) === stale) store(key, { loadedAt: started, value: Promise.resolve(value), refreshing: false });
      },
      (err: unknown) => {
        stale.refreshing = false;
        onRefreshError?.(key, err);
      },
    );
  }

  return {
    get(key: string, load: () => Promise<T>): Promise<T> {
      const hit = entries.get(key);
      if (!hit) return loadInto(key, load).value;
      const age = now() - hit.loadedAt;
      if (age > maxStaleMs) return loadInto(key, load).value;
      if (age > freshMs && !hit.refreshing) refresh(key, hit, load);
      // Most recently used goes last, so eviction takes the least recently used.
      entries.delete(key);
      entries.set(key, hit);
      return hit.value;
    },
    /** After a write that touches one key. */
    forget(key: string) {
      entries.delete(key);
    },
    /** After a write that may touch any key. */
    invalidate() {
      entries.clear();
    },
    get size() {
      return entries.size;
    },
  };
}
