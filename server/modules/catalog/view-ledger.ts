import type { RedisLink } from "../../lib/redis.js";

/**
 * Who has viewed which item today, so a view counts once per visitor per (China) day.
 *
 * In-process, like the other short-lived per-visitor state (rate limits, captchas; DESIGN.md):
 * PGlite is one process by nature; several instances on PostgreSQL keep it in Redis
 * (`redisViewLedger`, ADR 0039). It replaced a table row per view (item_views), whose
 * insert cost ~90 µs of PGlite's only thread per new visitor, and whose lookup was a query on
 * every page of a returning visitor (ADR 0012).
 *
 * Bounded in bytes (ADR 0037): past `maxBytes` (both days together) the least recent views are
 * forgotten, the day before's first, so a visitor seen long ago today may count once more; a
 * restart forgets the day as well. Both only ever add a view.
 *
 * A view is kept as a 53-bit hash of its item and visitor, a number: ~49 bytes in a Set on Node
 * 24, where the key string it replaced took ~186 (measured; it had been estimated at ~120, so
 * the old 20 MB bound held ~30 MB). Two views sharing a hash (about one in a million among a
 * day's 167,000) would count one view fewer: the count errs only as a restart does, never up.
 */
/** ~167k views at VIEW_ENTRY_BYTES each. */
export const VIEW_LEDGER_MAX_BYTES = 8 * 1024 * 1024;
/** What a view costs in the ledger's Set (measured on Node 24: ~49 bytes for a non-Smi number). */
export const VIEW_ENTRY_BYTES = 50;

export interface ViewLedger {
  /** Records the view; true when it is the visitor's first of the item on `day`. */
  firstToday(itemId: number, visitorId: string, day: string): boolean;
  /** The estimated bytes held (the bound's measure). */
  readonly bytes: number;
}

/** A view's key: cyrb53 (a public-domain 53-bit string hash) of the visitor id, seeded with the item id. */
export function viewKey(itemId: number, visitorId: string): number {
  let h1 = 0xdeadbeef ^ itemId;
  let h2 = 0x41c6ce57 ^ itemId;
  for (let i = 0; i < visitorId.length; i++) {
    const ch = visitorId.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

export function viewLedger(maxBytes = VIEW_LEDGER_MAX_BYTES): ViewLedger {
  // The day being counted and the one before (requests racing midnight); older days go.
  const days = new Map<string, Set<number>>();
  let bytes = 0;
  const forgetOldest = () => {
    // The older day first; within a day, a Set iterates in insertion order.
    const [oldestDay, oldest] = [...days].sort(([a], [b]) => (a < b ? -1 : 1))[0]!;
    const key = oldest.values().next().value;
    if (key === undefined) return days.delete(oldestDay);
    oldest.delete(key);
    bytes -= VIEW_ENTRY_BYTES;
  };
  return {
    get bytes() {
      return bytes;
    },
    firstToday(itemId, visitorId, day) {
      let seen = days.get(day);
      if (!seen) {
        days.set(day, (seen = new Set()));
        const kept = [...days.keys()].sort().slice(-2);
        for (const [d, views] of days) {
          if (kept.includes(d)) continue;
          bytes -= views.size * VIEW_ENTRY_BYTES;
          days.delete(d);
        }
      }
      const key = viewKey(itemId, visitorId);
      if (seen.has(key)) return false;
      seen.add(key);
      bytes += VIEW_ENTRY_BYTES;
      while (bytes > maxBytes) forgetOldest();
      return true;
    },
  };
}

/** A view's key lives this long in Redis: past its China day plus the requests racing midnight. */
export const SHARED_VIEW_TTL_MS = 26 * 3600_000;

/**
 * The ledger of several instances (ADR 0039): one key per view, SET NX PX, so the first instance
 * to see a visitor's view of the day counts it; Redis forgets it after SHARED_VIEW_TTL_MS, which
 * is its bound. While Redis is away views are deduped by `fallback` in this process (a visitor
 * may then count once per instance that day: views only ever add, and a page never fails for it).
 */
export function redisViewLedger(link: Pick<RedisLink, "commands">, fallback: ViewLedger = viewLedger()) {
  return {
    async firstToday(itemId: number, visitorId: string, day: string): Promise<boolean> {
      try {
        return (await link.commands.set(`views:${day}:${itemId}:${visitorId}`, "1", "PX", SHARED_VIEW_TTL_MS, "NX")) === "OK";
      } catch {
        return fallback.firstToday(itemId, visitorId, day);
      }
    },
  };
}
