import { and, type AnyColumn, desc, eq, inArray, isNotNull, type SQL, sql } from "drizzle-orm";
import type { AppDatabase } from "../../db/open.js";
import { admins, dailyCounters, downloads, items, loginRecords, users } from "../../db/schema/index.js";
import { type RowOf, selectRows } from "../../db/sql.js";
import { chinaDaySql } from "./china-days.js";
import type { DailyCounterName } from "./daily-counts-repo.js";

/** Rows of all time, of today and of yesterday (China days) by a timestamptz column. */
function counts(column: AnyColumn, today: Date, yesterday: Date) {
  const t = today.toISOString();
  return {
    total: sql<number>`count(*)::int`,
    today: sql<number>`count(*) filter (where ${column} >= ${t}::timestamptz)::int`,
    yesterday: sql<number>`count(*) filter (where ${column} >= ${yesterday.toISOString()}::timestamptz and ${column} < ${t}::timestamptz)::int`,
  };
}
export type DayCounts = RowOf<ReturnType<typeof counts>>;

const since = (column: AnyColumn, from: Date): SQL => sql`${column} >= ${from.toISOString()}::timestamptz`;

const LOGIN = {
  id: loginRecords.id,
  admin: admins.username,
  success: loginRecords.success,
  ip: loginRecords.ip,
  location: loginRecords.location,
  created_at: loginRecords.createdAt,
};

/** The dashboard's aggregates: a handful of counts, each one statement. */
export function dashboardRepo(db: AppDatabase) {
  const one = async (rows: Promise<DayCounts[]>): Promise<DayCounts> => {
    const [row] = await rows;
    return { total: row?.total ?? 0, today: row?.today ?? 0, yesterday: row?.yesterday ?? 0 };
  };
  const perDay = (column: AnyColumn) => ({ day: chinaDaySql(column), n: sql<number>`count(*)::int` });
  return {
    /** Suites are the mixes (kind 'mix'), hidden ones included: what the suite table lists. */
    suites: (today: Date, yesterday: Date) =>
      one(db.select(counts(items.createdAt, today, yesterday)).from(items).where(sql`${items.kind} = 'mix' and ${items.deletedAt} is null`)),
    users: (today: Date, yesterday: Date) => one(db.select(counts(users.createdAt, today, yesterday)).from(users)),
    /**
     * A history counter (daily_counters) on two China days: plays and views are kept there with
     * their events and never go down when suites (and their events) are deleted (ADR 0059).
     */
    async dayCounts(name: DailyCounterName, today: string, yesterday: string): Promise<{ today: number; yesterday: number }> {
      const rows = await db
        .select({ day: sql<string>`to_char(${dailyCounters.day}, 'YYYY-MM-DD')`, n: sql<number>`${dailyCounters.count}::int` })
        .from(dailyCounters)
        .where(and(eq(dailyCounters.name, name), inArray(dailyCounters.day, [today, yesterday])));
      const of = (day: string) => rows.find((r) => r.day === day)?.n ?? 0;
      return { today: of(today), yesterday: of(yesterday) };
    },
    downloads: (today: Date, yesterday: Date) =>
      one(db.select(counts(downloads.createdAt, today, yesterday)).from(downloads).where(since(downloads.createdAt, yesterday))),

    /** Per China day from `from` (its day `firstDay`) on: sign-ups and the history counters. */
    async perDay(from: Date, firstDay: string) {
      const [signups, counters] = await Promise.all([
        db.select(perDay(users.createdAt)).from(users).where(since(users.createdAt, from)).groupBy(sql`1`),
        db
          .select({ name: dailyCounters.name, day: sql<string>`to_char(${dailyCounters.day}, 'YYYY-MM-DD')`, n: sql<number>`${dailyCounters.count}::int` })
          .from(dailyCounters)
          .where(sql`${dailyCounters.day} >= ${firstDay}::date`),
      ]);
      const map = (rows: { day: string; n: number }[]) => new Map(rows.map((r) => [r.day, r.n]));
      const named = (name: DailyCounterName) => map(counters.filter((r) => r.name === name));
      return { signups: map(signups), plays: named("play"), views: named("view"), searches: named("search") };
    },

    async recentAdminLogins(limit: number) {
      return db
        .select(LOGIN)
        .from(loginRecords)
        .innerJoin(admins, eq(admins.id, loginRecords.adminId))
        .where(isNotNull(loginRecords.adminId))
        .orderBy(desc(loginRecords.createdAt), desc(loginRecords.id))
        .limit(limit);
    },

    async serverVersion(): Promise<string> {
      // Raw: a select without a table.
      const [row] = await selectRows(db, { version: sql<string>`version()` }, (list) => sql`select ${list}`);
      return row?.version ?? "";
    },
  };
}
