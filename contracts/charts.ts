import { z } from "zod";

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

export type ChartSite = (typeof CHART_SITES)[number] | typeof LOCAL_CHART_SITE;
export type ChartType = (typeof CHART_TYPES)[number];
export type ChartPeriodName = (typeof CHART_PERIOD_NAMES)[number];

export const chartMessages = {
  badSite: "榜单站点只能是 djuu、172minx、vvvdj 或 local",
  badType: "榜单类型只能是 mix（套曲）或 single（单曲）",
  badPeriod: "榜单周期只能是 day、week、month 或 quarter",
  noSingleDay: "单曲榜没有日榜，请选择 week、month 或 quarter",
} as const;

/** One chart line as the charts panel shows it. */
export const chartItemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  artist: z.string(),
  cover: z.string(),
  playtype: z.enum(["mp3", "mp4"]),
  /** Detail page, /sutie/{id}.html. */
  url: z.string(),
  /** Qualified plays inside the window. */
  plays: z.number().int(),
  /** 1-based position; ties in plays are broken by item id, ascending. */
  rank: z.number().int(),
});
export type ChartItem = z.infer<typeof chartItemSchema>;

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

/** The charts of one site, keyed as the spec names them. */
export const siteChartsSchema = z.object(
  Object.fromEntries(SIDE_KEYS.map((k) => [k, z.array(chartItemSchema)])) as Record<SideKey, z.ZodArray<typeof chartItemSchema>>,
);
export type SiteCharts = Record<SideKey, ChartItem[]>;

/** `side` of /api/forntend/index and getsort: site code -> its charts. */
export const chartSideSchema = z.record(z.string(), siteChartsSchema);
export type ChartSide = Record<string, SiteCharts>;

/** The spec key of a (type, period) chart, or undefined for the single day chart. */
export function sideKey(type: ChartType, period: ChartPeriodName): SideKey | undefined {
  if (type === "mix") return `rank_${period}`;
  return period === "day" ? undefined : `dan_rank_${period}`;
}

/** GET /api/forntend/getrank: one chart, for the panel's site/type/period switches. */
export const getRankQuerySchema = z.object({
  site: z.enum([...CHART_SITES, LOCAL_CHART_SITE], { error: chartMessages.badSite }).default("djuu"),
  type: z.enum(CHART_TYPES, { error: chartMessages.badType }).default("mix"),
  period: z.enum(CHART_PERIOD_NAMES, { error: chartMessages.badPeriod }).default("week"),
});
export type GetRankQuery = z.infer<typeof getRankQuerySchema>;

export const getRankDataSchema = z.object({
  site: z.string(),
  type: z.enum(CHART_TYPES),
  period: z.enum(CHART_PERIOD_NAMES),
  /** The spec key of this chart, e.g. rank_week or dan_rank_month. */
  key: z.enum(SIDE_KEYS),
  list: z.array(chartItemSchema),
  /** Unix seconds of the rebuild that produced the list; 0 when it has never been built. */
  updateTime: z.number().int(),
});
export type GetRankData = z.infer<typeof getRankDataSchema>;
