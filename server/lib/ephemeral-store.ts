import type { Clock } from "./clock.js";
import { systemClock } from "./clock.js";

/**
 * Short-lived keyed state that must expire on its own: captcha answers, login-failure counts,
 * email-code send throttles. One interface so several instances can later keep it in Redis
 * (roadmap step 9: GET/SET PX, GETDEL, INCR + PEXPIRE NX); today it lives in process.
 */
export interface EphemeralStore {
  /** The value under `key`, or undefined once expired or never set. */
  get(key: string): Promise<string | undefined>;
  /** Sets `key` for `ttlMs`. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Reads and deletes in one step: a single-use value can be taken once only. */
  take(key: string): Promise<string | undefined>;
  /**
   * Adds 1 to the counter under `key` and returns the new count. The window starts with the
   * first increment and is not extended by later ones (a fixed window, like Redis INCR with
   * PEXPIRE NX).
   */
  increment(key: string, windowMs: number): Promise<number>;
  /** The counter's current value (0 when absent or expired). */
  count(key: string): Promise<number>;
  delete(key: string): Promise<void>;
}

interface Entry {
  value: string;
  expiresAt: number;
}

/**
 * The in-process store. Expired entries are dropped when read and by a sweep once the map has
 * grown by `sweepEvery` writes, so an attacker filling it with keys cannot keep memory forever;
 * past `maxEntries` the oldest entries go first (a Map iterates in insertion order).
 */
export function memoryEphemeralStore(opts: { clock?: Clock; maxEntries?: number } = {}): EphemeralStore {
  const clock = opts.clock ?? systemClock;
  const maxEntries = opts.maxEntries ?? 200_000;
  const entries = new Map<string, Entry>();
  let writesSinceSweep = 0;
  const now = () => clock().getTime();

  function live(key: string): Entry | undefined {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  }
  function put(key: string, entry: Entry) {
    entries.delete(key);
    entries.set(key, entry);
    if (++writesSinceSweep >= 1000) {
      writesSinceSweep = 0;
      const t = now();
      for (const [k, e] of entries) if (e.expiresAt <= t) entries.delete(k);
    }
    while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
  }

  return {
    async get(key) {
      return live(key)?.value;
    },
    async set(key, value, ttlMs) {
      put(key, { value, expiresAt: now() + ttlMs });
    },
    async take(key) {
      const entry = live(key);
      entries.delete(key);
      return entry?.value;
    },
    async increment(key, windowMs) {
      const entry = live(key);
      const next = (entry ? Number(entry.value) : 0) + 1;
      if (entry) entry.value = String(next);
      else put(key, { value: String(next), expiresAt: now() + windowMs });
      return next;
    },
    async count(key) {
      return Number(live(key)?.value ?? 0);
    },
    async delete(key) {
      entries.delete(key);
    },
  };
}
