import { z } from "zod";
import { CHART_PERIOD_NAMES, CHART_SITES, CHART_TYPES, LOCAL_CHART_SITE, SIDE_KEYS, type SideKey } from "./chart-keys";

export * from "./chart-keys";

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

/** The charts of one site, keyed as the spec names them. */
export const siteChartsSchema = z.object(
  Object.fromEntries(SIDE_KEYS.map((k) => [k, z.array(chartItemSchema)])) as Record<SideKey, z.ZodArray<typeof chartItemSchema>>,
);
export type SiteCharts = Record<SideKey, ChartItem[]>;

/** `side` of /api/forntend/index and getsort: site code -> its charts. */
export const chartSideSchema = z.record(z.string(), siteChartsSchema);
export type ChartSide = Record<string, SiteCharts>;

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
