import { sql } from "drizzle-orm";
import type { AppDatabase } from "../../db/open.js";
import { dailyCounters } from "../../db/schema/index.js";
import { chinaDay } from "../../lib/china-day.js";
import { type Clock, systemClock } from "../../lib/clock.js";
import type { DailyCounterName as BufferedName } from "./daily-counts-repo.js";

/** Counts wait in memory at most this long before one batched write. */
export const COUNTER_FLUSH_MS = 5_000;

/**
 * The counters that may wait in memory (and be lost with the process). Plays and views are
 * written with their events instead (daily-counts-repo.ts): they must never lose an acknowledged count.
 */
export type DailyCounterName = Extract<BufferedName, "search">;

export interface DailyCounters {
  /** Counts one event on today's China day; written with the next batch. */
  add(name: DailyCounterName, by?: number): void;
  /** Writes what is waiting; resolves when written (a failed batch is kept for the next try). */
  flush(): Promise<void>;
}

/**
 * Per-day counters without a write per event (ADR 0032): the hot path only bumps a map, and a
 * timer adds the sums into daily_counters with one upsert, like the view buffer does for views.
 * Counts still in memory when the process dies are lost: a chart's daily total, not money.
 */
export function dailyCounterBuffer(db: AppDatabase, clock: Clock = systemClock): DailyCounters {
  let pending = new Map<string, { day: string; name: string; count: number }>();
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();

  const schedule = () => {
    if (timer) return;
    timer = setTimeout(() => void flush().catch(() => undefined), COUNTER_FLUSH_MS);
    timer.unref();
  };

  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    // After the previous batch, whether it was written or failed (a rejected chain would stay rejected).
    writing = writing.catch(() => undefined).then(async () => {
      if (pending.size === 0) return;
      const batch = pending;
      pending = new Map();
      try {
        await db
          .insert(dailyCounters)
          .values([...batch.values()])
          .onConflictDoUpdate({
            target: [dailyCounters.day, dailyCounters.name],
            set: { count: sql`${dailyCounters.count} + excluded.count` },
          });
      } catch (err) {
        for (const [key, row] of batch) {
          const kept = pending.get(key);
          if (kept) kept.count += row.count;
          else pending.set(key, row);
        }
        schedule();
        throw err;
      }
    });
    return writing;
  };

  return {
    add(name, by = 1) {
      const day = chinaDay(clock());
      const key = `${day}|${name}`;
      const row = pending.get(key);
      if (row) row.count += by;
      else pending.set(key, { day, name, count: by });
      schedule();
    },
    flush,
  };
}
