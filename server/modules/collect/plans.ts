import { CHART_PERIOD_NAMES, sideKey, type ChartPeriodName } from "@contracts/chart-keys";
import type { CollectUnit } from "../../db/schema/collect.js";
import type { GenericSourceConfig } from "../sources/adapters/generic-config.js";
import { MINX172_GENRES, MINX172_RANKS } from "../sources/parsers/minx172.js";
import { VVVDJ_CATEGORIES } from "../sources/parsers/vvvdj.js";
import { MINX172_CHART_RANK } from "../sources/adapters/minx172.js";

/**
 * What a collection job walks on each source (issue 11, "Collection"): the spec's seven charts
 * (mix day/week/month/quarter, single week/month/quarter) and the site's categories, each up to
 * a few pages. A plan is fixed into `collect_jobs.plan` when the job is queued, so a resumed job
 * walks the same list even if this file changed in between.
 */

/** Pages of one category per job: new items appear on the first pages (the sites list newest first). */
export const DEFAULT_CATEGORY_PAGES = 3;

/** The spec's charts, in its order: rank_day…rank_quarter, dan_rank_week…dan_rank_quarter. */
export function chartUnits(periods: readonly ChartPeriodName[] = CHART_PERIOD_NAMES): CollectUnit[] {
  const units: CollectUnit[] = [];
  for (const kind of ["mix", "single"] as const) {
    for (const period of periods) {
      if (sideKey(kind, period)) units.push({ type: "chart", period, kind, maxPages: 1 });
    }
  }
  return units;
}

/** djuu's category lists (`/djlist/{cid}_{page}.html`; SOURCES.md): cid, name, and the kind the name says. */
const DJUU_CATEGORIES: { key: string; name: string; kind?: "mix" | "single" }[] = [
  { key: "4", name: "中文Remix", kind: "single" },
  { key: "2", name: "慢摇串烧", kind: "mix" },
  { key: "1", name: "迪高串烧", kind: "mix" },
  { key: "13", name: "中文串烧", kind: "mix" },
  { key: "14", name: "外语串烧", kind: "mix" },
  { key: "12", name: "喊麦串烧", kind: "mix" },
  { key: "10", name: "外文DISCO" },
  { key: "100", name: "FunkyHouse" },
  { key: "107", name: "Vina/LakHouse" },
  { key: "108", name: "E.D.M" },
  { key: "110", name: "越南鼓" },
  { key: "114", name: "Hard" },
  { key: "21", name: "Club" },
  { key: "124", name: "新弹跳" },
  { key: "18", name: "中文慢歌", kind: "single" },
  { key: "19", name: "外语慢歌", kind: "single" },
];

/** 172Mix's rank pages that are not our charts: one page each (every page number answers the same list). */
const MINX172_RANK_NAMES: Record<string, string> = { sole: "独家榜", wwphb: "外文榜", housephb: "House榜" };

function categoryUnit(category: { key: string; name: string; kind?: "mix" | "single" }, maxPages: number): CollectUnit {
  return { type: "category", key: category.key, name: category.name, ...(category.kind ? { kind: category.kind } : {}), maxPages };
}

const BUILTIN_PLANS: Record<string, (maxPages: number) => CollectUnit[]> = {
  djuu: (maxPages) => [...chartUnits(), ...DJUU_CATEGORIES.map((c) => categoryUnit(c, maxPages))],
  "172minx": (maxPages) => {
    const chartRanks = new Set<string>(Object.values(MINX172_CHART_RANK));
    const ranks = MINX172_RANKS.filter((slug) => !chartRanks.has(slug)).map((slug) =>
      categoryUnit({ key: `ranks/${slug}`, name: MINX172_RANK_NAMES[slug] ?? slug }, 1),
    );
    const genres = Object.entries(MINX172_GENRES).map(([key, genre]) => categoryUnit({ key, ...genre }, maxPages));
    return [...chartUnits(), ...genres, ...ranks];
  },
  vvvdj: (maxPages) => [
    ...chartUnits(),
    ...Object.entries(VVVDJ_CATEGORIES).flatMap(([category, { name, subs, kind }]) =>
      subs.map((sub) => categoryUnit({ key: `${category}/${sub}`, name, ...(kind ? { kind } : {}) }, maxPages)),
    ),
  ],
};

/** A generic source's plan from its config: the charts it maps (`charts`), then its `categories`. */
export function genericPlan(config: GenericSourceConfig, maxPages = DEFAULT_CATEGORY_PAGES): CollectUnit[] {
  const periods = config.chart ? CHART_PERIOD_NAMES.filter((period) => config.charts[period] !== undefined) : [];
  const categories = config.category ? config.categories : [];
  return [...chartUnits(periods), ...categories.map((c) => categoryUnit(c, c.maxPages ?? maxPages))];
}

/**
 * The plan of a source: a generic source's comes from its config, a built-in one's from the
 * site's known lists. Undefined for a code we know nothing about (nothing to walk).
 */
export function planFor(
  source: string,
  { genericConfig, maxPages = DEFAULT_CATEGORY_PAGES }: { genericConfig?: GenericSourceConfig | null; maxPages?: number } = {},
): CollectUnit[] | undefined {
  if (genericConfig) return genericPlan(genericConfig, maxPages);
  return BUILTIN_PLANS[source]?.(maxPages);
}

/** How a unit is named in the log and the admin API: `chart week:mix`, `category 2 慢摇串烧`. */
export function describeUnit(unit: CollectUnit): string {
  return unit.type === "chart" ? `chart ${chartKey(unit)}` : `category ${unit.key} ${unit.name}`;
}

/** The key of a chart in `collected_items.chart_positions`: `"week:mix"`. */
export function chartKey(unit: { period: string; kind: string }): string {
  return `${unit.period}:${unit.kind}`;
}
