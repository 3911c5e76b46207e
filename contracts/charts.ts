import { z } from "zod";
import { CHART_BOARDS, CHART_PERIOD_NAMES, CHART_SITES, CHART_TYPES, LOCAL_CHART_SITE, SIDE_KEYS, type SideKey } from "./chart-keys";

export * from "./chart-keys";

export const chartMessages = {
  badSite: "榜单站点只能是 djuu、172minx、vvvdj 或 local",
  badType: "榜单类型只能是 mix（套曲）或 single（单曲）",
  badPeriod: "榜单周期只能是 day、week、month 或 quarter",
  noSingleDay: "单曲榜没有日榜，请选择 week、month 或 quarter",
  badBoard: "榜单来源只能是 plays（本站播放）或 site（站点自己的榜单）",
  noLocalSiteBoard: "local 没有站点自己的榜单，请选择 djuu、172minx 或 vvvdj",
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

const CHART_SITE_CODES = [...CHART_SITES, LOCAL_CHART_SITE] as const;

/** GET /api/forntend/getrank: one chart, for the panel's site/type/period switches. */
export const getRankQuerySchema = z.object({
  // The built-in sites, 本站, or a plugin's own source (`p-…`, issue 21).
  site: z
    .string({ error: chartMessages.badSite })
    .refine((site) => (CHART_SITE_CODES as readonly string[]).includes(site) || /^p-[a-z0-9-]{1,30}$/u.test(site), { error: chartMessages.badSite })
    .default("djuu"),
  type: z.enum(CHART_TYPES, { error: chartMessages.badType }).default("mix"),
  period: z.enum(CHART_PERIOD_NAMES, { error: chartMessages.badPeriod }).default("week"),
  /** plays (default): our qualified plays, the spec's answer; site: the site's own chart. */
  board: z.enum(CHART_BOARDS, { error: chartMessages.badBoard }).default("plays"),
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

/**
 * One line of a site's own chart (board=site), as collected from the site. Linked to our
 * catalogue once the collected item is processed into a visible item; otherwise it links out
 * to the item's page on the site and plays through our source-play route.
 */
export const sourceChartItemSchema = z.object({
  /** Our item id when linked; else "{site}:{sourceId}" (never one of our numbers). */
  id: z.union([z.number().int(), z.string()]),
  name: z.string(),
  artist: z.string(),
  cover: z.string(),
  playtype: z.enum(["mp3", "mp4"]),
  /** /sutie/{id}.html when linked; else the item's page on its site (opened in a new tab). */
  url: z.string(),
  /** Spelled so by the spec: our media address, or the source-play route; "" when it cannot play. */
  palyurl: z.string(),
  /** "application/vnd.apple.mpegurl" when the source-play route leads to HLS (as search hits). */
  mimeType: z.string().optional(),
  /** The site's own position. */
  rank: z.number().int(),
  /** True when `url` is the source page (not in our catalogue, or hidden there). */
  external: z.boolean(),
  /** The item's page on its site. */
  weburl: z.string(),
  /** The site's shown name (DJUU, 172Mix, 清风DJ). */
  website: z.string(),
});
export type SourceChartItem = z.infer<typeof sourceChartItemSchema>;

/** getrank?board=site: the site's own chart, as last collected. */
export const siteRankDataSchema = z.object({
  board: z.literal("site"),
  site: z.string(),
  /** The site's shown name. */
  website: z.string(),
  type: z.enum(CHART_TYPES),
  period: z.enum(CHART_PERIOD_NAMES),
  key: z.enum(SIDE_KEYS),
  list: z.array(sourceChartItemSchema),
  /** Unix seconds of the collection that stored the chart; 0 when never collected. */
  updateTime: z.number().int(),
});
export type SiteRankData = z.infer<typeof siteRankDataSchema>;

/** The site board first: its `board` literal tells it apart (the plays answer has no `board`). */
export const getRankAnswerSchema = z.union([siteRankDataSchema, getRankDataSchema]);
export type GetRankAnswer = z.infer<typeof getRankAnswerSchema>;
