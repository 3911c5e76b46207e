/** The dashboard's texts, limits and answer types, without zod (browser code imports this file). */
import type { SourceCanaryAnswer } from "./source-health";

export const DASHBOARD_SERIES_DAYS_DEFAULT = 30;
export const DASHBOARD_SERIES_DAYS_MAX = 90;

export const dashboardMessages = {
  badDays: `天数须为 1 到 ${DASHBOARD_SERIES_DAYS_MAX} 的整数`,
} as const;

/** A count and how many of it fell on today and on yesterday (China days). */
export interface DashboardStat {
  /** The card's number: the total (suites, users) or today's count (plays, downloads). */
  value: number;
  today: number;
  yesterday: number;
}

export interface DashboardSystem {
  appVersion: string;
  os: string;
  nodeVersion: string;
  dbEngine: "pglite" | "postgres";
  dbVersion: string;
  uptimeSec: number;
  dataDir: string;
  dataDirBytes: number;
  /** The walk stopped at its file limit: the size is at least this much. */
  dataDirPartial: boolean;
}

export interface DashboardCache {
  name: string;
  entries: number;
  bytes: number;
  maxBytes: number;
  hits: number;
  misses: number;
  /** Dropped by change events (tags). */
  drops: number;
  /** Pushed out by the caps. */
  evictions: number;
}

export interface DashboardLogin {
  id: number;
  admin: string;
  success: boolean;
  ip: string;
  location: string;
  /** ISO 8601. */
  createdAt: string;
}

export interface DashboardSourceHealth {
  code: string;
  name: string;
  state: "closed" | "open" | "half-open";
  successRate: number | null;
  p50Ms: number | null;
  p95Ms: number | null;
  lastError: { kind: string; message: string; at: string } | null;
  consecutiveFailures: number;
  calls: number;
  failures: number;
  skipped: number;
  retryAt: string | null;
  /** The last canary run (ADR 0049), null before the first. */
  canary: SourceCanaryAnswer | null;
}

export interface DashboardAnswer {
  /** The China day the counts are for (YYYY-MM-DD). */
  day: string;
  stats: { suites: DashboardStat; users: DashboardStat; playsToday: DashboardStat; downloadsToday: DashboardStat };
  system: DashboardSystem;
  sources: DashboardSourceHealth[];
  /** This instance's caches (ADR 0054), read live: what /metrics counts as djsearch_cache_*. */
  caches: DashboardCache[];
  logins: DashboardLogin[];
  /** ISO 8601: when these numbers were read (they are kept about 10 s). */
  generatedAt: string;
}

export interface DashboardSeriesAnswer {
  /** China days, oldest first, ending today. */
  days: string[];
  plays: number[];
  /** Counted suite views (daily_counters `view`, ADR 0059). */
  views: number[];
  signups: number[];
  searches: number[];
}
