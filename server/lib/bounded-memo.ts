/**
 * A pure function's answers remembered per key, at most `max` of them, forgotten all at once
 * when full: for hot paths that see a few keys again and again (a URL's route, an
 * Accept-Encoding value, a cookie value's check), where a real LRU costs more than it saves.
 * Not a cache of data: what it remembers must never change for the life of the process.
 */
export function boundedMemo<K, V>(max: number, compute: (key: K) => V): (key: K) => V {
  const known = new Map<K, V>();
  return (key) => {
    const hit = known.get(key);
    // One lookup for the usual answer (never undefined on these paths); has() only for an undefined one.
    if (hit !== undefined || known.has(key)) return hit as V;
    const value = compute(key);
    if (known.size >= max) known.clear();
    known.set(key, value);
    return value;
  };
}
