import { sql } from "drizzle-orm";
import type { AppDatabase } from "../../db/open.js";
import { dailyCounters } from "../../db/schema/index.js";

/**
 * Names of the per-day history rows (daily_counters.name, ADR 0032 and 0059):
 * - `search`: first pages of searches, batched in memory (counter-buffer.ts, may lose 5 s);
 * - `play`: qualified plays, added in the transaction that records the play event;
 * - `view`: counted suite views, added by the statement that records the view batch.
 * A row is only ever added to: deleting a suite (and its events) leaves the history alone.
 */
export type DailyCounterName = "search" | "play" | "view";

/**
 * Adds `by` to a China day's counter. Pass the transaction that records the counted event, so
 * the count and the event commit (or fail) together.
 */
export async function addDailyCount(db: AppDatabase, day: string, name: DailyCounterName, by = 1): Promise<void> {
  if (by <= 0) return;
  await db
    .insert(dailyCounters)
    .values({ day, name, count: by })
    .onConflictDoUpdate({ target: [dailyCounters.day, dailyCounters.name], set: { count: sql`${dailyCounters.count} + excluded.count` } });
}
