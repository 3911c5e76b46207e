import type { ChartPeriodName, ChartType, SideKey } from "@contracts/chart-keys";
import type { SiteRankData, SourceChartItem } from "@contracts/charts";
import { DEFAULT_COVER } from "@contracts/player-texts";
import type { AppDatabase } from "../../db/open.js";
import type { EventBus } from "../../events/bus.js";
import { type CacheRegistry, jsonBytes } from "../../lib/cache.js";
import { tags } from "../../lib/cache-tags.js";
import type { SourceDirectory } from "../sources/directory.js";
import { HLS_MIME_TYPE, SOURCE_PLAY_PATH, sourcePlayUrl } from "../sources/source-provider.js";
import { sourceChartsRepo, type SourceChartRow } from "./source-charts-repo.js";

/**
 * How long a site's chart is reused. The collector's `sourceCharts` event drops it at once;
 * the time only bounds what another instance (no relayed bus yet) or a processing step that
 * links an entry without an event may leave behind.
 */
export const SOURCE_CHART_CACHE_MS = 15_000;

/** The artist shown when neither the site nor our item names one. */
const NO_ARTIST = "";

/** A site's chart line as the panel shows it: ours when linked to a visible item, else the site's. */
export function toSourceChartItem(row: SourceChartRow, site: string, website: string, hls: boolean): SourceChartItem {
  const routeUrl = row.sourceId ? sourcePlayUrl(site, row.sourceId) : "";
  const linked = row.itemId !== null;
  const palyurl = linked ? (row.itemPlayUrl ?? "") : routeUrl;
  // The route's address cannot say it leads to an HLS playlist: the hint does (as search hits).
  const viaRoute = palyurl.startsWith(SOURCE_PLAY_PATH);
  return {
    // No source id (the collector could not read one): named by its rank, and it cannot play.
    id: linked ? row.itemId! : `${site}:${row.sourceId ?? `rank-${row.rank}`}`,
    name: (linked ? row.itemTitle : null) ?? row.title,
    artist: (linked ? row.itemArtist : null) ?? row.artist ?? NO_ARTIST,
    cover: (linked ? row.itemCover : null) || row.cover || DEFAULT_COVER,
    playtype: (linked ? row.itemPlaytype : null) ?? row.playtype,
    url: linked ? `/sutie/${row.itemId}.html` : row.sourceUrl,
    palyurl,
    ...(hls && viaRoute ? { mimeType: HLS_MIME_TYPE } : {}),
    rank: row.rank,
    external: !linked,
    weburl: row.sourceUrl,
    website,
  };
}

/**
 * The sites' own charts (board=site of getrank): read from `source_chart_entries`, cached per
 * chart, dropped when a collection stores a site's charts (`sourceCharts` event) and on any
 * item or source change (an item processed, hidden or renamed; a site renamed).
 */
export function sourceCharts(
  db: AppDatabase,
  { caches, bus, sources }: { caches: CacheRegistry; bus: EventBus; sources?: Pick<SourceDirectory, "get"> },
) {
  const repo = sourceChartsRepo(db);
  const charts = caches.create<SiteRankData>({
    name: "source-charts",
    maxEntries: 64,
    maxBytes: 4 * 1024 * 1024,
    sizeOf: jsonBytes,
    freshMs: SOURCE_CHART_CACHE_MS,
    // Key: site|…; its entries link to our items, so any item write drops it too.
    tagsOf: (_chart, key) => [tags.sourceChart(key.split("|")[0]!), tags.items, tags.sources],
  });

  async function build(site: string, type: ChartType, period: ChartPeriodName, key: SideKey, limit: number): Promise<SiteRankData> {
    const rows = await repo.chart(site, type, period, limit);
    const entry = sources?.get(site);
    const website = rows[0]?.siteName ?? (await repo.siteName(site)) ?? entry?.name ?? site;
    const hls = entry?.playFormat === "hls";
    const stamps = rows.map((r) => new Date(r.collectedAt).getTime());
    return {
      board: "site",
      site,
      website,
      type,
      period,
      key,
      list: rows.map((r) => toSourceChartItem(r, site, website, hls)),
      updateTime: stamps.length ? Math.floor(Math.max(...stamps) / 1000) : 0,
    };
  }

  return {
    /** One site's own chart, first `limit` lines (cached). */
    chart(site: string, type: ChartType, period: ChartPeriodName, key: SideKey, limit: number): Promise<SiteRankData> {
      return charts.get(`${site}|${type}|${period}|${limit}`, () => build(site, type, period, key, limit));
    },

    /** Says a collection stored `site`'s charts: every instance's panel answers drop them. */
    changed(site: string | readonly string[]): void {
      bus.publish({ type: "sourceCharts", codes: typeof site === "string" ? [site] : [...site] });
    },
  };
}
