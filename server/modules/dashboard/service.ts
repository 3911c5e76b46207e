import type { DashboardAnswer, DashboardSeriesAnswer, DashboardSourceHealth } from "@contracts/dashboard-texts";
import type { AppDatabase } from "../../db/open.js";
import type { DatabaseEngine } from "../../db/types.js";
import { type Clock, systemClock } from "../../lib/clock.js";
import { chinaDayStart, lastChinaDays, todayAndYesterday } from "./china-days.js";
import { dashboardRepo } from "./repo.js";
import { APP_VERSION, dataDirSize, OS_NAME } from "./system-info.js";

/** The counts are read again at most this often, however many admins watch the dashboard. */
export const DASHBOARD_TTL_MS = 10_000;
const RECENT_LOGINS = 10;

export interface DashboardOptions {
  engine: DatabaseEngine;
  dataDir: string;
  clock?: Clock;
  /** The sources' live health (services.sourceHealth.list). */
  sourceHealth: () => Promise<DashboardSourceHealth[]>;
}

type Counted = Omit<DashboardAnswer, "system" | "sources"> & { system: Omit<DashboardAnswer["system"], "uptimeSec"> };

/**
 * The back office's dashboard (ADR 0032): four counts with today and yesterday (China days),
 * the per-day series, the system and the recent admin logins. The aggregates are kept
 * DASHBOARD_TTL_MS (one set of queries however many tabs refresh), the sources' health and
 * the uptime are read live.
 */
export function dashboardService(db: AppDatabase, { engine, dataDir, clock = systemClock, sourceHealth }: DashboardOptions) {
  const repo = dashboardRepo(db);
  const dirSize = dataDirSize(dataDir, () => clock().getTime());
  let dbVersion: Promise<string> | undefined;
  let kept: { at: number; value: Promise<Counted> } | undefined;
  const seriesKept = new Map<number, { at: number; value: Promise<DashboardSeriesAnswer> }>();

  const count = async (): Promise<Counted> => {
    const now = clock();
    const { day, today, yesterday } = todayAndYesterday(now);
    dbVersion ??= repo.serverVersion().catch((err) => {
      dbVersion = undefined;
      throw err;
    });
    const [suites, users, plays, downloads, logins, version, size] = await Promise.all([
      repo.suites(today, yesterday),
      repo.users(today, yesterday),
      repo.plays(today, yesterday),
      repo.downloads(today, yesterday),
      repo.recentAdminLogins(RECENT_LOGINS),
      dbVersion,
      dirSize(),
    ]);
    return {
      day,
      stats: {
        suites: { value: suites.total, today: suites.today, yesterday: suites.yesterday },
        users: { value: users.total, today: users.today, yesterday: users.yesterday },
        playsToday: { value: plays.today, today: plays.today, yesterday: plays.yesterday },
        downloadsToday: { value: downloads.today, today: downloads.today, yesterday: downloads.yesterday },
      },
      system: {
        appVersion: APP_VERSION,
        os: OS_NAME,
        nodeVersion: process.version,
        dbEngine: engine,
        dbVersion: version,
        dataDir,
        dataDirBytes: size.bytes,
        dataDirPartial: size.partial,
      },
      logins: logins.map((r) => ({
        id: r.id,
        admin: r.admin,
        success: r.success,
        ip: r.ip,
        location: r.location,
        createdAt: new Date(r.created_at).toISOString(),
      })),
      generatedAt: now.toISOString(),
    };
  };

  /** A kept promise younger than the TTL, else a fresh one (a failed one is not kept). */
  function fresh<V>(entry: { at: number; value: Promise<V> } | undefined, load: () => Promise<V>, keep: (e: { at: number; value: Promise<V> } | undefined) => void): Promise<V> {
    const now = clock().getTime();
    if (entry && now - entry.at >= 0 && now - entry.at < DASHBOARD_TTL_MS) return entry.value;
    const value = load();
    const made = { at: now, value };
    keep(made);
    value.catch(() => keep(undefined));
    return value;
  }

  return {
    async dashboard(): Promise<DashboardAnswer> {
      const counted = await fresh(kept, count, (e) => (kept = e));
      return {
        ...counted,
        system: { ...counted.system, uptimeSec: Math.floor(process.uptime()) },
        sources: await sourceHealth(),
      };
    },

    /** Plays, sign-ups and searches per China day, the last `days` days up to today. */
    series(days: number): Promise<DashboardSeriesAnswer> {
      return fresh(
        seriesKept.get(days),
        async () => {
          const list = lastChinaDays(clock(), days);
          const { plays, signups, counter } = await repo.perDay(chinaDayStart(list[0]!), list[0]!, "search");
          return {
            days: list,
            plays: list.map((d) => plays.get(d) ?? 0),
            signups: list.map((d) => signups.get(d) ?? 0),
            searches: list.map((d) => counter.get(d) ?? 0),
          };
        },
        (e) => (e ? seriesKept.set(days, e) : seriesKept.delete(days)),
      );
    },
  };
}

export type DashboardService = ReturnType<typeof dashboardService>;
