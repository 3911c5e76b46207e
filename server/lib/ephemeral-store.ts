import type { Clock } from "./clock.js";
import { systemClock } from "./clock.js";

/**
 * Short-lived keyed state that must expire on its own: captcha answers, login-failure counts,
 * email-code send throttles. One interface, two stores: this one in process (the default), and
 * `redis-ephemeral-store.ts` when REDIS_URL is set, so several instances share it (ADR 0039).
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

/** What an entry costs besides its key and value characters (a Map slot and the entry object). */
const ENTRY_OVERHEAD = 100;

/**
 * The in-process store. Expired entries are dropped when read and by a sweep once the map has
 * grown by `sweepEvery` writes, so an attacker filling it with keys cannot keep memory forever;
 * past `maxEntries` or `maxBytes` (keys, values and overhead, ADR 0037) the oldest entries go
 * first (a Map iterates in insertion order).
 */
export function memoryEphemeralStore(opts: { clock?: Clock; maxEntries?: number; maxBytes?: number } = {}): EphemeralStore & { readonly bytes: number } {
  const clock = opts.clock ?? systemClock;
  const maxEntries = opts.maxEntries ?? 200_000;
  const maxBytes = opts.maxBytes ?? 16 * 1024 * 1024;
  const entries = new Map<string, Entry>();
  let bytes = 0;
  let writesSinceSweep = 0;
  const now = () => clock().getTime();
  const cost = (key: string, entry: Entry) => key.length + entry.value.length + ENTRY_OVERHEAD;

  function drop(key: string) {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= cost(key, entry);
  }
  function live(key: string): Entry | undefined {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now()) {
      drop(key);
      return undefined;
    }
    return entry;
  }
  function put(key: string, entry: Entry) {
    drop(key);
    entries.set(key, entry);
    bytes += cost(key, entry);
    if (++writesSinceSweep >= 1000) {
      writesSinceSweep = 0;
      const t = now();
      for (const [k, e] of entries) if (e.expiresAt <= t) drop(k);
    }
    while (entries.size > maxEntries || bytes > maxBytes) drop(entries.keys().next().value as string);
  }

  return {
    get bytes() {
      return bytes;
    },
    async get(key) {
      return live(key)?.value;
    },
    async set(key, value, ttlMs) {
      put(key, { value, expiresAt: now() + ttlMs });
    },
    async take(key) {
      const entry = live(key);
      drop(key);
      return entry?.value;
    },
    async increment(key, windowMs) {
      const entry = live(key);
      const next = (entry ? Number(entry.value) : 0) + 1;
      if (entry) {
        bytes += String(next).length - entry.value.length;
        entry.value = String(next);
      } else put(key, { value: String(next), expiresAt: now() + windowMs });
      return next;
    },
    async count(key) {
      return Number(live(key)?.value ?? 0);
    },
    async delete(key) {
      drop(key);
    },
  };
}
