import { type AnyColumn, type SQL, sql } from "drizzle-orm";
import { chinaDay } from "../../lib/china-day.js";

/** China has kept UTC+8 without daylight saving since 1991: a China day is a fixed UTC range. */
const CHINA_OFFSET_MS = 8 * 3_600_000;
const DAY_MS = 86_400_000;

/** The instant a China day (YYYY-MM-DD) begins. */
export function chinaDayStart(day: string): Date {
  return new Date(Date.parse(`${day}T00:00:00Z`) - CHINA_OFFSET_MS);
}

/** Today's China day and where today and yesterday begin. */
export function todayAndYesterday(now: Date): { day: string; today: Date; yesterday: Date } {
  const day = chinaDay(now);
  const today = chinaDayStart(day);
  return { day, today, yesterday: new Date(today.getTime() - DAY_MS) };
}

/** The last `n` China days up to today, oldest first. */
export function lastChinaDays(now: Date, n: number): string[] {
  const today = chinaDayStart(chinaDay(now)).getTime();
  const days: string[] = [];
  for (let i = n - 1; i >= 0; i--) {
    // Noon of that day, so the formatting never sits on an edge.
    days.push(chinaDay(new Date(today - i * DAY_MS + 12 * 3_600_000)));
  }
  return days;
}

/** SQL turning a timestamptz column into its China day (the same days as chinaDay). */
export const chinaDaySql = (column: AnyColumn): SQL<string> => sql<string>`to_char((${column} at time zone 'UTC') + interval '8 hours', 'YYYY-MM-DD')`;
