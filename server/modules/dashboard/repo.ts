import { and, type AnyColumn, desc, eq, isNotNull, type SQL, sql } from "drizzle-orm";
import type { AppDatabase } from "../../db/open.js";
import { admins, dailyCounters, downloads, items, loginRecords, playEvents, users } from "../../db/schema/index.js";
import { type RowOf, selectRows } from "../../db/sql.js";
import { chinaDaySql } from "./china-days.js";

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
      one(db.select(counts(items.createdAt, today, yesterday)).from(items).where(sql`${items.kind} = 'mix'`)),
    users: (today: Date, yesterday: Date) => one(db.select(counts(users.createdAt, today, yesterday)).from(users)),
    /** Only the two days are read (the played_at index); total is the two days' sum. */
    plays: (today: Date, yesterday: Date) =>
      one(db.select(counts(playEvents.playedAt, today, yesterday)).from(playEvents).where(since(playEvents.playedAt, yesterday))),
    downloads: (today: Date, yesterday: Date) =>
      one(db.select(counts(downloads.createdAt, today, yesterday)).from(downloads).where(since(downloads.createdAt, yesterday))),

    /** Per China day from `from` on: plays, sign-ups and the named daily counter. */
    async perDay(from: Date, firstDay: string, counter: string) {
      const [plays, signups, counters] = await Promise.all([
        db.select(perDay(playEvents.playedAt)).from(playEvents).where(since(playEvents.playedAt, from)).groupBy(sql`1`),
        db.select(perDay(users.createdAt)).from(users).where(since(users.createdAt, from)).groupBy(sql`1`),
        db
          .select({ day: sql<string>`to_char(${dailyCounters.day}, 'YYYY-MM-DD')`, n: sql<number>`${dailyCounters.count}::int` })
          .from(dailyCounters)
          .where(and(eq(dailyCounters.name, counter), sql`${dailyCounters.day} >= ${firstDay}::date`)),
      ]);
      const map = (rows: { day: string; n: number }[]) => new Map(rows.map((r) => [r.day, r.n]));
      return { plays: map(plays), signups: map(signups), counter: map(counters) };
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
