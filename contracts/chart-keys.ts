// No zod here: browser components import these, and the public bundle stays free of schemas.

/**
 * Charts (spec section 3, Ranking): sites djuu, 172minx, vvvdj; types mix and single; periods
 * day, week, month, quarter. Mix keys rank_{period}; single keys dan_rank_{period}, which the
 * spec defines for week, month and quarter only: there is no single day chart.
 */
export const CHART_SITES = ["djuu", "172minx", "vvvdj"] as const;
/** Our own catalogue: listed in `side` only when it has chart entries. */
export const LOCAL_CHART_SITE = "local";
export const CHART_TYPES = ["mix", "single"] as const;
export const CHART_PERIOD_NAMES = ["day", "week", "month", "quarter"] as const;
export const SINGLE_CHART_PERIODS = ["week", "month", "quarter"] as const;

/**
 * Which board `getrank` answers (ADR 0025): `plays`, our qualified plays (the default, the
 * spec's answer), or `site`, the site's own chart as last collected from it.
 */
export const CHART_BOARDS = ["plays", "site"] as const;
export type ChartBoard = (typeof CHART_BOARDS)[number];

export type ChartSite = (typeof CHART_SITES)[number] | typeof LOCAL_CHART_SITE;
export type ChartType = (typeof CHART_TYPES)[number];
export type ChartPeriodName = (typeof CHART_PERIOD_NAMES)[number];

export const SIDE_KEYS = [
  "rank_day",
  "rank_week",
  "rank_month",
  "rank_quarter",
  "dan_rank_week",
  "dan_rank_month",
  "dan_rank_quarter",
] as const;
export type SideKey = (typeof SIDE_KEYS)[number];

/** The spec key of a (type, period) chart, or undefined for the single day chart. */
export function sideKey(type: ChartType, period: ChartPeriodName): SideKey | undefined {
  if (type === "mix") return `rank_${period}`;
  return period === "day" ? undefined : `dan_rank_${period}`;
}
