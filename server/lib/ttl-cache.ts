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
