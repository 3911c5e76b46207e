import {
  CHART_SITES,
  chartMessages,
  LOCAL_CHART_SITE,
  SIDE_KEYS,
  sideKey,
  type ChartItem,
  type ChartPeriodName,
  type ChartSide,
  type ChartType,
  type GetRankAnswer,
  type GetRankData,
  type GetRankQuery,
  type SideKey,
  type SiteCharts,
} from "@contracts/charts";
import { DEFAULT_COVER } from "@contracts/player-texts";
import type { AppDatabase } from "../../db/open.js";
import { type EventBus, inProcessBus } from "../../events/bus.js";
import { type CacheRegistry, jsonBytes } from "../../lib/cache.js";
import { registryFollowing, tags } from "../../lib/cache-tags.js";
import { badRequest } from "../../errors.js";
import type { SourceDirectory } from "../sources/directory.js";
import { chartsRepo, type ChartRow, type ChartWindow } from "./repo.js";
import { sourceCharts } from "./source-charts.js";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Rolling windows ending at the rebuild's `now`: fixed lengths, so no calendar or DST edges. */
export const CHART_WINDOW_MS: Record<ChartPeriodName, number> = {
  day: DAY_MS,
  week: 7 * DAY_MS,
  month: 30 * DAY_MS,
  quarter: 90 * DAY_MS,
};
/** Entries stored per (site, kind, period); the side panel shows the first SIDE_LIMIT. */
export const CHART_TOP = 50;
export const SIDE_LIMIT = 10;
/**
 * How long a built `side` is reused before it is read again (other instances may have rebuilt);
 * a change event about items or sites drops it at once (a hidden item leaves every chart).
 */
export const SIDE_CACHE_MS = 15_000;


export type RebuildResult =
  | { status: "rebuilt"; rows: number; ms: number }
  /** Another rebuild was running in this process, or another instance held the lock. */
  | { status: "skipped"; reason: "running" | "locked" };

const sideIds = new WeakMap<ChartSide, ReadonlySet<number>>();

/** The ids of the items a `side` lists (worked out once per side: a pure memo, goes with its side). */
export function chartSideItemIds(side: ChartSide): ReadonlySet<number> {
  let ids = sideIds.get(side);
  if (!ids) {
    const found = new Set<number>();
    for (const charts of Object.values(side)) for (const list of Object.values(charts)) for (const item of list) found.add(Number(item.id));
    sideIds.set(side, (ids = found));
  }
  return ids;
}

export function chartWindows(now: Date): ChartWindow[] {
  return (Object.keys(CHART_WINDOW_MS) as ChartPeriodName[]).map((period) => ({
    period,
    since: new Date(now.getTime() - CHART_WINDOW_MS[period]),
    kinds: period === "day" ? ["mix"] : ["mix", "single"],
  }));
}

function toItem(row: ChartRow, rank: number): ChartItem {
  return {
    id: row.id,
    name: row.title,
    artist: row.artist,
    cover: row.cover || DEFAULT_COVER,
    playtype: row.playtype,
    url: `/sutie/${row.id}.html`,
    plays: row.plays,
    rank,
  };
}

function emptySite(): SiteCharts {
  return Object.fromEntries(SIDE_KEYS.map((k) => [k, []])) as unknown as SiteCharts;
}

export interface ChartSideOptions {
  /** Site codes to include; default djuu, 172minx, vvvdj, plus `local` when it has entries. */
  sites?: readonly string[];
  /** Items per chart; default 10. */
  limit?: number;
}

/**
 * Charts: background rebuilds from play events, and cheap reads of the stored result. One per
 * app (createServices): it holds the in-process rebuild lock and the `side` cache.
 */
export function chartsService(
  db: AppDatabase,
  // Standalone (scripts, tests): caches and events of its own.
  {
    caches: givenCaches,
    bus = inProcessBus(),
    clock = () => new Date(),
    sources,
    tallyBacklogEvents,
  }: {
    /** New events above which the counts catch up before the locked rebuild (repo.ts). */
    tallyBacklogEvents?: number;
    caches?: CacheRegistry;
    bus?: EventBus;
    clock?: () => Date;
    /** The external sources in use: names and the HLS hint of the sites' own charts. */
    sources?: Pick<SourceDirectory, "get">;
  } = {},
) {
  const repo = chartsRepo(db, { backlogEvents: tallyBacklogEvents });
  const caches = givenCaches ?? registryFollowing(bus);
  const siteBoards = sourceCharts(db, { caches, bus, sources });
  let running: Promise<RebuildResult> | undefined;
  const sides = caches.create<ChartSide>({
    name: "chart-side",
    maxEntries: 8,
    maxBytes: 2 * 1024 * 1024,
    sizeOf: jsonBytes,
    freshMs: SIDE_CACHE_MS,
    // Charts show items' titles, covers and sites, and only visible items (a hidden one leaves
    // at once; one shown again joins at the next read, SIDE_CACHE_MS).
    // Rebuilt charts (`charts`) are read again at the next ask.
    tagsOf: (side) => [...[...chartSideItemIds(side)].map(tags.item), tags.sources, tags.charts],
  });

  return {
    /**
     * Rebuilds every chart for windows ending at `now`. Never two at once: a call while one
     * runs in this process is skipped, and so is one while another instance holds the lock.
     */
    async rebuildCharts(now: Date = clock()): Promise<RebuildResult> {
      if (running) return { status: "skipped", reason: "running" };
      const run = (async (): Promise<RebuildResult> => {
        const started = performance.now();
        const outcome = await repo.rebuild({ now, windows: chartWindows(now), top: CHART_TOP });
        if (outcome.status === "locked") return { status: "skipped", reason: "locked" };
        sides.clear();
        await bus.publish({ type: "charts" });
        return { status: "rebuilt", rows: outcome.rows, ms: Math.round(performance.now() - started) };
      })();
      running = run;
      try {
        return await run;
      } finally {
        running = undefined;
      }
    },

    /** Resolves when the rebuild in progress (if any) has finished, whatever its outcome. */
    async idle(): Promise<void> {
      await running?.catch(() => undefined);
    },

    /**
     * The `side` of the home and category pages: per site, the seven spec charts (rank_day …
     * dan_rank_quarter), first `limit` items each. Cached for SIDE_CACHE_MS.
     */
    chartSide(options: ChartSideOptions = {}): Promise<ChartSide> {
      const limit = options.limit ?? SIDE_LIMIT;
      return sides.get(`${options.sites?.join(",") ?? "*"}|${limit}`, () => buildSide(options.sites, limit));
    },

    /**
     * The items people are most likely to open first (the background pre-render's suites, ADR
     * 0038): those the charts list, best ranked first across every chart, `limit` at most.
     */
    mostPlayed(limit: number): Promise<number[]> {
      return limit > 0 ? repo.mostPlayedIds(limit) : Promise.resolve([]);
    },

    /**
     * One chart for the panel's switches; singles have no day chart (400). `board` plays (the
     * default) is our qualified plays; `site` is the site's own chart as last collected.
     */
    async getRank(query: Omit<GetRankQuery, "board"> & Partial<Pick<GetRankQuery, "board">>, limit = SIDE_LIMIT): Promise<GetRankAnswer> {
      const { site, type, period, board = "plays" } = query;
      const key = sideKey(type, period);
      if (!key) throw badRequest(chartMessages.noSingleDay);
      if (board === "plays") return playsChart(site, type, period, key, limit);
      if (site === LOCAL_CHART_SITE) throw badRequest(chartMessages.noLocalSiteBoard);
      return siteBoards.chart(site, type, period, key, limit);
    },

    /**
     * The collector calls this after it stored `site`'s charts (source_chart_entries): a
     * `sourceCharts` event drops the site's kept charts in every listening cache.
     */
    sourceChartsChanged(site: string | readonly string[]): void {
      siteBoards.changed(site);
    },
  };

  async function playsChart(site: string, type: ChartType, period: ChartPeriodName, key: SideKey, limit: number): Promise<GetRankData> {
    const rows = await repo.chart(site, type, period, limit);
    const at = rows.length ? new Date(rows[0].computedAt) : await repo.lastComputedAt();
    return {
      site,
      type,
      period,
      key,
      list: rows.map((r, i) => toItem(r, i + 1)),
      updateTime: at ? Math.floor(at.getTime() / 1000) : 0,
    };
  }

  async function buildSide(sites: readonly string[] | undefined, limit: number): Promise<ChartSide> {
    const wanted = sites ?? [...CHART_SITES, LOCAL_CHART_SITE];
    const rows = await repo.topEntries(wanted, limit);
    const side: ChartSide = {};
    for (const site of sites ?? CHART_SITES) side[site] = emptySite();
    for (const row of rows) {
      const key = sideKey(row.kind as ChartType, row.period);
      if (!key) continue;
      const list = (side[row.site] ??= emptySite())[key];
      // Ranks are renumbered so an item hidden since the rebuild leaves no gap.
      list.push(toItem(row, list.length + 1));
    }
    return side;
  }
}

export type ChartsService = ReturnType<typeof chartsService>;
