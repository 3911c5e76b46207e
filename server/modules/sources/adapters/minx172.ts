import {
  blockedSearchError,
  isBlockedAnswer,
  MINX172,
  MINX172_GENRES,
  MINX172_RANKS,
  minx172Paths,
  needsAsciiQuery,
  readMinxList,
  readMinxPlayPage,
  readMinxRank,
} from "../parsers/minx172.js";
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
 * 172Mix (www.172mix.com, code `172minx`; SOURCES.md). Everything is read from the web pages
 * (`parsers/minx172.ts`): search (ASCII keywords only: its firewall refuses the others),
 * genres (the only lists that really page), rank pages and the play page's media address.
 */

/**
 * The site's ranks have no periods (every page number answers the same list): a chart asks the
 * same rank page for every period. Mixes read 串烧榜 (`sjcsds`, all mixes), singles 中文榜
 * (`zwphb`, the site's main list of Chinese remixes; its mixes are filtered out). The other
 * ranks (独家榜 `sole`, 外文榜 `wwphb`, House榜 `housephb`) are categories `ranks/{slug}`.
 */
export const MINX172_CHART_RANK: Record<ItemKind, (typeof MINX172_RANKS)[number]> = { mix: "sjcsds", single: "zwphb" };

/** The media host checks the site's own page as Referer (SOURCES.md: scrapers send it). */
export const MINX172_REFERER = "https://www.172mix.com/";

const PLAY_ID = /^[A-Za-z0-9_-]+$/u;
const GENRE_KEY = /^[a-z0-9_-]+$/iu;

export function createMinx172Adapter(context: AdapterContext): SourceAdapter {
  const { fetcher } = context;
  const web = context.baseUrl.replace(/\/$/u, "");
  const source = MINX172.code;

  async function get(url: string, signal?: AbortSignal) {
    return fetcher.fetch({ url, encoding: "utf-8", signal });
  }

  function rankKind(slug: string): ItemKind | undefined {
    return slug === "sjcsds" ? "mix" : undefined;
  }

  async function listRank(slug: (typeof MINX172_RANKS)[number], signal?: AbortSignal): Promise<SourcePage> {
    const url = `${web}${minx172Paths.rank(slug)}`;
    return readMinxRank(pageText(source, await get(url, signal), "rank"), url, rankKind(slug));
  }

  /** The play page, read once for details and media; a page that is gone is `not_found`. */
  async function playPage(sourceId: string, signal?: AbortSignal) {
    if (!PLAY_ID.test(sourceId)) throw new SourceError(source, "not_found", `no 172Mix item ${sourceId}`);
    const url = `${web}${minx172Paths.play(sourceId)}`;
    return readMinxPlayPage(pageText(source, await get(url, signal), "play page"), url);
  }

  return {
    ...MINX172,

    /** Its firewall answers 403 to every non-ASCII keyword (SOURCES.md): such a query is never sent, and never a failure. */
    servesQuery: (input: SearchInput) => !needsAsciiQuery(input.keyword),

    async search(input: SearchInput, signal?: AbortSignal): Promise<SourcePage> {
      if (input.type === "mp4") return { items: [], hasMore: false }; // audio only
      // The search provider does not call us with one (servesQuery); a direct caller learns it without a request.
      if (needsAsciiQuery(input.keyword)) throw new SourceError(source, "blocked", "172Mix's firewall refuses non-ASCII queries: not sent");
      const url = `${web}${minx172Paths.search(input.keyword, input.page)}`;
      const answer = await get(url, signal);
      // A 403 for an ASCII query is still the firewall refusing us: a source error, never "no results".
      if (isBlockedAnswer(answer.status)) throw blockedSearchError(input.keyword, answer.status);
      const page = readMinxList(pageText(source, answer, "search"), url);
      return input.kind ? { ...page, items: page.items.filter((item) => item.kind === input.kind) } : page;
    },

    /** `category`: a genre slug (`csds2`, page N is `/genre/{slug}/page/N`), or `ranks/{slug}` (one page only). */
    async listCategory(category: string, page: number, signal?: AbortSignal): Promise<SourcePage> {
      const rank = /^ranks\/(.+)$/u.exec(category)?.[1];
      if (rank !== undefined) {
        if (!(MINX172_RANKS as readonly string[]).includes(rank)) throw new SourceError(source, "not_found", `no 172Mix rank ${rank}`);
        // Every page number answers the same list: only page 1 has items.
        return page > 1 ? { items: [], hasMore: false } : listRank(rank as (typeof MINX172_RANKS)[number], signal);
      }
      if (!GENRE_KEY.test(category)) throw new SourceError(source, "not_found", `no 172Mix genre ${category}`);
      const url = `${web}${minx172Paths.genre(category, page)}`;
      return readMinxList(pageText(source, await get(url, signal), "genre"), url, { siteKind: MINX172_GENRES[category]?.kind });
    },

    async listChart(chart: { period: ChartPeriod; kind: ItemKind }, signal?: AbortSignal): Promise<SourcePage> {
      const page = await listRank(MINX172_CHART_RANK[chart.kind], signal);
      // `position` stays the site's rank, before our kind filter.
      return { ...page, items: page.items.filter((item) => item.kind === chart.kind) };
    },

    async details(sourceId: string, signal?: AbortSignal): Promise<SourceItemDetails> {
      return (await playPage(sourceId, signal)).details;
    },

    async resolveMedia(sourceId: string, signal?: AbortSignal): Promise<ResolvedMedia> {
      try {
        const { media } = await playPage(sourceId, signal);
        return { ...media, headers: { ...media.headers, Referer: MINX172_REFERER } };
      } catch (error) {
        // A play page that is gone is an address that no longer resolves (the player's 媒体地址无效).
        if (error instanceof SourceError && error.kind === "not_found") throw new SourceError(source, "expired", `172Mix item ${sourceId} no longer plays`, error.status);
        throw error;
      }
    },
  };
}
