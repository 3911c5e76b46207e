/**
 * Who has viewed which item today, so a view counts once per visitor per (China) day.
 *
 * In-process, like the other short-lived per-visitor state (rate limits, captchas; DESIGN.md):
 * PGlite is one process by nature, and several instances on PostgreSQL share state through
 * Redis, which will hold this set too. It replaced a table row per view (item_views), whose
 * insert cost ~90 µs of PGlite's only thread per new visitor, and whose lookup was a query on
 * every page of a returning visitor (ADR 0012).
 *
 * Bounded: past `maxEntries` the least recent views are forgotten, so a visitor seen long ago
 * today may count once more; a restart forgets the day as well. Both only ever add a view.
 */
export const VIEW_LEDGER_MAX = 500_000;

export interface ViewLedger {
  /** Records the view; true when it is the visitor's first of the item on `day`. */
  firstToday(itemId: number, visitorId: string, day: string): boolean;
}

export function viewLedger(maxEntries = VIEW_LEDGER_MAX): ViewLedger {
  // The day being counted and the one before (requests racing midnight); older days go.
  const days = new Map<string, Set<string>>();
  return {
    firstToday(itemId, visitorId, day) {
      let seen = days.get(day);
      if (!seen) {
        days.set(day, (seen = new Set()));
        const kept = [...days.keys()].sort().slice(-2);
        for (const d of days.keys()) if (!kept.includes(d)) days.delete(d);
      }
      const key = `${itemId}|${visitorId}`;
      if (seen.has(key)) return false;
      seen.add(key);
      // A Set iterates in insertion order: the first is the least recent.
      if (seen.size > maxEntries) seen.delete(seen.values().next().value as string);
      return true;
    },
  };
}
