import { readVvvdjCategory, readVvvdjCharts, readVvvdjPlayPage, readVvvdjSearch, VVVDJ, VVVDJ_CATEGORIES, vvvdjCategoryPath, vvvdjPaths, type VvvdjChartKey } from "../parsers/vvvdj.js";
import {
  SourceError,
  type AdapterContext,
  type ChartPeriod,
  type ItemKind,
  type ResolvedMedia,
  type SearchInput,
  type SourceAdapter,
  type SourceItemDetails,
  type SourcePage,
} from "../types.js";
import { pageText } from "./site-answer.js";

/**
 * 清风DJ (www.vvvdj.com, code `vvvdj`; SOURCES.md). Search, categories and the home page's chart
 * widget are read from the web pages (`parsers/vvvdj.ts`); the playable address is decoded from
 * the play page's obfuscated `playurl` call (`parsers/vvvdj-playurl.ts`): an HLS playlist whose
 * `upt` token carries its expiry.
 */

/** The media host is reached with the site's own page as Referer (one public script sends it). */
export const VVVDJ_REFERER = "https://www.vvvdj.com/";

/** Search `cid`: 1 串烧, 2 单曲, 0 all. */
const SEARCH_CID: Record<ItemKind, 1 | 2> = { mix: 1, single: 2 };

/**
 * The home widget has 周榜/月榜/季榜 for 串烧 and 单曲; there is no day chart, so `day` answers
 * the week's (the nearest).
 */
const CHART_PERIOD: Record<ChartPeriod, "week" | "month" | "quarter"> = { day: "week", week: "week", month: "month", quarter: "quarter" };

/**
 * A category key: `c{N}/{sub}` (sub ids are global, see VVVDJ_CATEGORIES: `c2/3` is 慢摇串烧's
 * first sub-list), optionally `c{N}/{sub}-{lang}-{order}` (lang 0 all, 5 国语; order 1 推荐,
 * 6 yearly plays, 7 yearly downloads). Default lang 0, order 1.
 */
const CATEGORY_KEY = /^(c\d+)\/(\d+)(?:-(\d+)-(\d+))?$/u;

/** Every category key of the site (each category's sub-lists), e.g. for a collector walking them. */
export function vvvdjCategoryKeys(): string[] {
  return Object.entries(VVVDJ_CATEGORIES).flatMap(([category, { subs }]) => subs.map((sub) => `${category}/${sub}`));
}

export interface VvvdjContext extends AdapterContext {
  /** The clock an `upt` token is compared with (tests); default Date.now. */
  now?: () => number;
}

export function createVvvdjAdapter(context: VvvdjContext): SourceAdapter {
  const { fetcher } = context;
  const web = context.baseUrl.replace(/\/$/u, "");
  const now = context.now ?? Date.now;
  const source = VVVDJ.code;

  async function getPage(url: string, what: string, signal?: AbortSignal): Promise<string> {
    return pageText(source, await fetcher.fetch({ url, encoding: "utf-8", signal }), what);
  }

  async function playPage(sourceId: string, signal?: AbortSignal) {
    if (!/^\d+$/u.test(sourceId)) throw new SourceError(source, "not_found", `no 清风DJ item ${sourceId}`);
    const url = `${web}${vvvdjPaths.play(sourceId)}`;
    return readVvvdjPlayPage(await getPage(url, "play page", signal), url);
  }

  return {
    ...VVVDJ,

    async search(input: SearchInput, signal?: AbortSignal): Promise<SourcePage> {
      if (input.type === "mp4") return { items: [], hasMore: false }; // audio only
      const cid = input.kind ? SEARCH_CID[input.kind] : 0;
      const url = `${web}${vvvdjPaths.search(input.keyword, input.page, cid)}`;
      return readVvvdjSearch(await getPage(url, "search", signal), url, { siteKind: input.kind });
    },

    async listCategory(category: string, page: number, signal?: AbortSignal): Promise<SourcePage> {
      const match = CATEGORY_KEY.exec(category);
      const known = match ? VVVDJ_CATEGORIES[match[1]!] : undefined;
      if (!match || !known || !known.subs.includes(Number(match[2]))) throw new SourceError(source, "not_found", `no 清风DJ category ${category}`);
      const [, key, sub, lang = "0", order = "1"] = match;
      const url = `${web}${vvvdjCategoryPath(key!, Number(sub), page, Number(lang), Number(order))}`;
      return readVvvdjCategory(await getPage(url, "category", signal), url, { siteKind: known.kind });
    },

    async listChart(chart: { period: ChartPeriod; kind: ItemKind }, signal?: AbortSignal): Promise<SourcePage> {
      const url = `${web}${vvvdjPaths.home()}`;
      const charts = readVvvdjCharts(await getPage(url, "home page", signal), url);
      const key: VvvdjChartKey = `${chart.kind === "mix" ? "rank" : "dan_rank"}_${CHART_PERIOD[chart.period]}`;
      return charts[key];
    },

    async details(sourceId: string, signal?: AbortSignal): Promise<SourceItemDetails> {
      return (await playPage(sourceId, signal)).details;
    },

    async resolveMedia(sourceId: string, signal?: AbortSignal): Promise<ResolvedMedia> {
      let media: ResolvedMedia;
      try {
        media = (await playPage(sourceId, signal)).media;
      } catch (error) {
        if (error instanceof SourceError && error.kind === "not_found") throw new SourceError(source, "expired", `清风DJ item ${sourceId} no longer plays`, error.status);
        throw error;
      }
      // A token already past would only give the player 403s from the media host.
      if (media.expiresAt !== undefined && media.expiresAt <= now()) {
        throw new SourceError(source, "expired", `清风DJ address for ${sourceId} expired at ${new Date(media.expiresAt).toISOString()}`);
      }
      return { ...media, headers: { ...media.headers, Referer: VVVDJ_REFERER } };
    },
  };
}
