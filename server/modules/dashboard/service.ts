import type { DashboardAnswer, DashboardSeriesAnswer, DashboardSourceHealth } from "@contracts/dashboard-texts";
import type { AppDatabase } from "../../db/open.js";
import type { DatabaseEngine } from "../../db/types.js";
import { type CacheRegistry, jsonBytes } from "../../lib/cache.js";
import { type Clock, systemClock } from "../../lib/clock.js";
import { chinaDay } from "../../lib/china-day.js";
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
  /** The app's registry: the dashboard keeps its own values there and lists every cache. */
  caches: CacheRegistry;
}

type Counted = Omit<DashboardAnswer, "system" | "sources" | "caches"> & { system: Omit<DashboardAnswer["system"], "uptimeSec"> };

/**
 * The back office's dashboard (ADR 0032): four counts with today and yesterday (China days),
 * the per-day series, the system and the recent admin logins. The aggregates are kept
 * DASHBOARD_TTL_MS (one set of queries however many tabs refresh), the sources' health and
 * the uptime are read live.
 */
export function dashboardService(db: AppDatabase, { engine, dataDir, clock = systemClock, sourceHealth, caches }: DashboardOptions) {
  const repo = dashboardRepo(db);
  const dirSize = dataDirSize(dataDir, caches);
  const now = () => clock().getTime();
  // One set of queries per DASHBOARD_TTL_MS, shared by the tabs asking meanwhile; a failed one is not kept.
  // (Fresh up to DASHBOARD_TTL_MS - 1 ms: read again once the TTL has passed, as before.)
  const small = { maxBytes: 256 * 1024, sizeOf: jsonBytes, now };
  const counts = caches.create<Counted>({ name: "dashboard", maxEntries: 1, freshMs: DASHBOARD_TTL_MS - 1, ...small });
  const series = caches.create<DashboardSeriesAnswer>({ name: "dashboard-series", maxEntries: 8, freshMs: DASHBOARD_TTL_MS - 1, ...small });
  // The database server's version: read once (again only after a failure).
  const serverVersion = caches.create<string>({ name: "db-version", maxEntries: 1, ...small });

  const count = async (): Promise<Counted> => {
    const now = clock();
    const { day, today, yesterday } = todayAndYesterday(now);
    const [suites, users, plays, downloads, logins, version, size] = await Promise.all([
      repo.suites(today, yesterday),
      repo.users(today, yesterday),
      repo.dayCounts("play", day, chinaDay(yesterday)),
      repo.downloads(today, yesterday),
      repo.recentAdminLogins(RECENT_LOGINS),
      serverVersion.get("", () => repo.serverVersion()),
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

  return {
    async dashboard(): Promise<DashboardAnswer> {
      const counted = await counts.get("", count);
      return {
        ...counted,
        system: { ...counted.system, uptimeSec: Math.floor(process.uptime()) },
        sources: await sourceHealth(),
        caches: caches.stats().map(({ name, entries, bytes, maxBytes, hits, misses, drops, evictions }) => ({ name, entries, bytes, maxBytes, hits, misses, drops, evictions })),
      };
    },

    /** Plays, views, sign-ups and searches per China day, the last `days` days up to today. */
    series(days: number): Promise<DashboardSeriesAnswer> {
      return series.get(String(days), async () => {
        const list = lastChinaDays(clock(), days);
        const { plays, views, signups, searches } = await repo.perDay(chinaDayStart(list[0]!), list[0]!);
        return {
          days: list,
          plays: list.map((d) => plays.get(d) ?? 0),
          views: list.map((d) => views.get(d) ?? 0),
          signups: list.map((d) => signups.get(d) ?? 0),
          searches: list.map((d) => searches.get(d) ?? 0),
        };
      });
    },
  };
}

export type DashboardService = ReturnType<typeof dashboardService>;
