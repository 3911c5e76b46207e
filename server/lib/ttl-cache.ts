/**
 * One value loaded on demand and kept for `ttlMs`: concurrent callers share the pending load,
 * and a failed load is not kept, so the next caller tries again.
 */
export function ttlCache<T>(load: () => Promise<T>, ttlMs: number, now: () => number = Date.now) {
  let cached: { at: number; value: Promise<T> } | undefined;
  return {
    get(): Promise<T> {
      if (!cached || now() - cached.at > ttlMs) {
        const value = load();
        const entry = { at: now(), value };
        value.catch(() => {
          if (cached === entry) cached = undefined;
        });
        cached = entry;
      }
      return cached.value;
    },
    /** Forget the value (the back office calls this after an edit). */
    invalidate() {
      cached = undefined;
    },
  };
}

/**
 * `ttlCache` per key, holding at most `maxEntries` (the oldest filled goes first), for answers
 * that vary by a few request parameters (a category, a page). `load` runs on a miss.
 */
export function keyedTtlCache<T>({ ttlMs, maxEntries }: { ttlMs: number; maxEntries: number }, now: () => number = Date.now) {
  const entries = new Map<string, { at: number; value: Promise<T> }>();
  return {
    get(key: string, load: () => Promise<T>): Promise<T> {
      const hit = entries.get(key);
      if (hit && now() - hit.at <= ttlMs) return hit.value;
      entries.delete(key);
      const entry = { at: now(), value: load() };
      entry.value.catch(() => {
        if (entries.get(key) === entry) entries.delete(key);
      });
      entries.set(key, entry);
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
      return entry.value;
    },
    invalidate() {
      entries.clear();
    },
  };
}
