import { type SQL, sql } from "drizzle-orm";
import type { AppDatabase } from "../../db/open.js";
import { queryRows } from "../../db/sql.js";
import { chinaDaySql } from "./china-days.js";

export interface DayCounts {
  total: number;
  today: number;
  yesterday: number;
}

/** Rows of today and of yesterday (China days) by a timestamptz column. */
function counts(column: "created_at" | "played_at", today: Date, yesterday: Date) {
  const c = sql.raw(column);
  const t = today.toISOString();
  return sql`count(*) filter (where ${c} >= ${t}::timestamptz)::int as today,
    count(*) filter (where ${c} >= ${yesterday.toISOString()}::timestamptz and ${c} < ${t}::timestamptz)::int as yesterday`;
}

/** The dashboard's aggregates: a handful of counts, each one statement. */
export function dashboardRepo(db: AppDatabase) {
  const one = async (query: SQL): Promise<DayCounts> => {
    const [row] = await queryRows<DayCounts>(db, query);
    return { total: row?.total ?? 0, today: row?.today ?? 0, yesterday: row?.yesterday ?? 0 };
  };
  return {
    /** Suites are the mixes (kind 'mix'), hidden ones included: what the suite table lists. */
    suites: (today: Date, yesterday: Date) =>
      one(sql`select count(*)::int as total, ${counts("created_at", today, yesterday)} from items where kind = 'mix'`),
    users: (today: Date, yesterday: Date) =>
      one(sql`select count(*)::int as total, ${counts("created_at", today, yesterday)} from users`),
    /** Only the two days are read (the played_at index); total is the two days' sum. */
    plays: (today: Date, yesterday: Date) =>
      one(
        sql`select count(*)::int as total, ${counts("played_at", today, yesterday)} from play_events
            where played_at >= ${yesterday.toISOString()}::timestamptz`,
      ),
    downloads: (today: Date, yesterday: Date) =>
      one(
        sql`select count(*)::int as total, ${counts("created_at", today, yesterday)} from downloads
            where created_at >= ${yesterday.toISOString()}::timestamptz`,
      ),

    /** Per China day from `from` on: plays, sign-ups and the named daily counter. */
    async perDay(from: Date, firstDay: string, counter: string) {
      const since = from.toISOString();
      const [plays, signups, counters] = await Promise.all([
        queryRows<{ day: string; n: number }>(
          db,
          sql`select ${sql.raw(chinaDaySql("played_at"))} as day, count(*)::int as n from play_events
              where played_at >= ${since}::timestamptz group by 1`,
        ),
        queryRows<{ day: string; n: number }>(
          db,
          sql`select ${sql.raw(chinaDaySql("created_at"))} as day, count(*)::int as n from users
              where created_at >= ${since}::timestamptz group by 1`,
        ),
        queryRows<{ day: string; n: number }>(
          db,
          sql`select to_char(day, 'YYYY-MM-DD') as day, count::int as n from daily_counters
              where name = ${counter} and day >= ${firstDay}::date`,
        ),
      ]);
      const map = (rows: { day: string; n: number }[]) => new Map(rows.map((r) => [r.day, r.n]));
      return { plays: map(plays), signups: map(signups), counter: map(counters) };
    },

    async recentAdminLogins(limit: number) {
      return queryRows<{ id: number; admin: string; success: boolean; ip: string; location: string; created_at: string | Date }>(
        db,
        sql`select r.id, a.username as admin, r.success, r.ip, r.location, r.created_at
            from login_records r join admins a on a.id = r.admin_id
            where r.admin_id is not null order by r.created_at desc, r.id desc limit ${limit}`,
      );
    },

    async serverVersion(): Promise<string> {
      const [row] = await queryRows<{ version: string }>(db, sql`select version() as version`);
      return row?.version ?? "";
    },
  };
}
