// Type-only: erased from the bundle, so no zod reaches the browser.
import type { ChartItem, ChartSide, GetRankData, SiteRankData, SourceChartItem } from "@contracts/charts";
import type { CatalogueItem } from "@contracts/catalogue-item";
import { type ChartPeriodName, type ChartType, type SideKey, sideKey } from "@contracts/chart-keys";
import { apiGet } from "../../lib/api";

/** The charts the panel has: some of a `side`, site code -> spec key -> list. */
export type PanelCharts = Partial<Record<string, Partial<Record<SideKey, ChartItem[]>>>>;

/** What the panel shows first: the first site's weekly mix chart. */
export const FIRST_CHART = { site: "djuu", type: "mix", period: "week" } as const satisfies {
  site: string;
  type: ChartType;
  period: ChartPeriodName;
};
/** Lines the panel shows per chart. */
export const PANEL_LINES = 10;

/**
 * The part of `side` a page sends with its HTML: the chart shown first. The whole `side`
 * (four sites x seven charts, ~60 KB) was a quarter of the home page's HTML and of what the
 * browser parsed before it could hydrate; the panel fetches any other chart when it is chosen.
 */
export function firstCharts(side: ChartSide): PanelCharts {
  const key = sideKey(FIRST_CHART.type, FIRST_CHART.period) as SideKey;
  return { [FIRST_CHART.site]: { [key]: (side[FIRST_CHART.site]?.[key] ?? []).slice(0, PANEL_LINES) } };
}

/** GET /api/forntend/getrank; rejects when it fails (the panel then says so). */
export async function fetchChart(site: string, type: ChartType, period: ChartPeriodName): Promise<ChartItem[]> {
  const body = await apiGet<GetRankData>(`/api/forntend/getrank?${new URLSearchParams({ site, type, period })}`, null);
  if (!body || body.code !== 1) throw new Error(body?.msg || "榜单加载失败");
  return body.data.list;
}

/** GET /api/forntend/getrank?board=site: the site's own chart as last collected (ADR 0025). */
export async function fetchSiteChart(site: string, type: ChartType, period: ChartPeriodName): Promise<SourceChartItem[]> {
  const query = new URLSearchParams({ site, type, period, board: "site" });
  const body = await apiGet<SiteRankData>(`/api/forntend/getrank?${query}`, null);
  if (!body || body.code !== 1) throw new Error(body?.msg || "榜单加载失败");
  return body.data.list;
}

/**
 * A site chart line as the list item the play button takes: linked lines play our item, the
 * others the source-play route (with the HLS hint), as search hits do.
 */
export function siteChartPlayable(entry: SourceChartItem, site: string, type: ChartType): CatalogueItem {
  return {
    id: entry.id,
    name: entry.name,
    artist: entry.artist,
    cover: entry.cover,
    palyurl: entry.palyurl,
    ...(entry.mimeType ? { mimeType: entry.mimeType } : {}),
    playtype: entry.playtype,
    kind: type,
    channel: site,
    website: entry.website,
    websitelogo: "",
    category: "",
    cidurl: "",
    time: 0,
    weburl: entry.weburl,
    url: entry.url,
    vipdown: "0",
    price: 0,
    view_count: 0,
    source: entry.external ? site : "local",
  };
}
