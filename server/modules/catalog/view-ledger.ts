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
 */
/** ~160k views at the measured ~120 bytes each (a Set entry and its key string). */
export const VIEW_LEDGER_MAX_BYTES = 20 * 1024 * 1024;
/** What a view costs besides its key's characters (measured on Node 24: ~98 bytes). */
export const VIEW_ENTRY_OVERHEAD = 100;

export interface ViewLedger {
  /** Records the view; true when it is the visitor's first of the item on `day`. */
  firstToday(itemId: number, visitorId: string, day: string): boolean;
  /** The estimated bytes held (the bound's measure). */
  readonly bytes: number;
}

export function viewLedger(maxBytes = VIEW_LEDGER_MAX_BYTES): ViewLedger {
  // The day being counted and the one before (requests racing midnight); older days go.
  const days = new Map<string, Set<string>>();
  let bytes = 0;
  const cost = (key: string) => key.length + VIEW_ENTRY_OVERHEAD;
  const forgetOldest = () => {
    // The older day first; within a day, a Set iterates in insertion order.
    const [oldestDay, oldest] = [...days].sort(([a], [b]) => (a < b ? -1 : 1))[0]!;
    const key = oldest.values().next().value;
    if (key === undefined) return days.delete(oldestDay);
    oldest.delete(key);
    bytes -= cost(key);
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
          for (const key of views) bytes -= cost(key);
          days.delete(d);
        }
      }
      const key = `${itemId}|${visitorId}`;
      if (seen.has(key)) return false;
      seen.add(key);
      bytes += cost(key);
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
