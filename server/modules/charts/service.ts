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
  type GetRankData,
  type GetRankQuery,
  type SiteCharts,
} from "@contracts/charts";
import { DEFAULT_COVER } from "@contracts/player-texts";
import type { AppDatabase } from "../../db/open.js";
import { badRequest } from "../../errors.js";
import { chartsRepo, type ChartRow, type ChartWindow } from "./repo.js";

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
/** How long a built `side` is reused before it is read again (other instances may have rebuilt). */
export const SIDE_CACHE_MS = 15_000;


export type RebuildResult =
  | { status: "rebuilt"; rows: number; ms: number }
  /** Another rebuild was running in this process, or another instance held the lock. */
  | { status: "skipped"; reason: "running" | "locked" };

/** Per-database state shared by every service instance: one rebuild at a time, one side cache. */
interface SharedState {
  running?: Promise<RebuildResult>;
  side?: { at: number; sites: string; value: Promise<ChartSide> };
}
const shared = new WeakMap<AppDatabase, SharedState>();
function stateOf(db: AppDatabase): SharedState {
  let state = shared.get(db);
  if (!state) shared.set(db, (state = {}));
  return state;
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

/** Charts: background rebuilds from play events, and cheap reads of the stored result. */
export function chartsService(db: AppDatabase, clock: () => Date = () => new Date()) {
  const repo = chartsRepo(db);
  const state = stateOf(db);

  return {
    /**
     * Rebuilds every chart for windows ending at `now`. Never two at once: a call while one
     * runs in this process is skipped, and so is one while another instance holds the lock.
     */
    async rebuildCharts(now: Date = clock()): Promise<RebuildResult> {
      if (state.running) return { status: "skipped", reason: "running" };
      const run = (async (): Promise<RebuildResult> => {
        const started = performance.now();
        const outcome = await repo.rebuild({ now, windows: chartWindows(now), top: CHART_TOP });
        if (outcome.status === "locked") return { status: "skipped", reason: "locked" };
        state.side = undefined;
        return { status: "rebuilt", rows: outcome.rows, ms: Math.round(performance.now() - started) };
      })();
      state.running = run;
      try {
        return await run;
      } finally {
        state.running = undefined;
      }
    },

    /** Resolves when the rebuild in progress (if any) has finished, whatever its outcome. */
    async idle(): Promise<void> {
      await state.running?.catch(() => undefined);
    },

    /**
     * The `side` of the home and category pages: per site, the seven spec charts (rank_day …
     * dan_rank_quarter), first `limit` items each. Cached for SIDE_CACHE_MS.
     */
    chartSide(options: ChartSideOptions = {}): Promise<ChartSide> {
      const limit = options.limit ?? SIDE_LIMIT;
      const cacheKey = `${options.sites?.join(",") ?? "*"}|${limit}`;
      const cached = state.side;
      if (cached && cached.sites === cacheKey && Date.now() - cached.at < SIDE_CACHE_MS) return cached.value;
      const value = buildSide(options.sites, limit);
      state.side = { at: Date.now(), sites: cacheKey, value };
      value.catch(() => {
        if (state.side?.value === value) state.side = undefined;
      });
      return value;
    },

    /** One chart for the panel's switches; singles have no day chart (400). */
    async getRank({ site, type, period }: GetRankQuery, limit = SIDE_LIMIT): Promise<GetRankData> {
      const key = sideKey(type, period);
      if (!key) throw badRequest(chartMessages.noSingleDay);
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
    },
  };

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
