import { classifyKind, parseDuration, splitArtist } from "../normalise.js";
import {
  SourceError,
  type AdapterContext,
  type ChartPeriod,
  type ItemKind,
  type ResolvedMedia,
  type SearchInput,
  type SourceAdapter,
  type SourceItem,
  type SourceItemDetails,
  type SourcePage,
} from "../types.js";
import { apiListPage, apiSong, DJUU_SEARCH_ROWS, djuuApi, fromApiSong, listenAnswer } from "./djuu-api.js";
import { readListPage, readPlayPage, type ListedAnchor } from "./djuu-pages.js";
import { pageText } from "./site-answer.js";

/**
 * djuu (www.djuu.com, DJ呦呦; SOURCES.md). Search, details and the playable address ask the app
 * API first (`djuu-api.ts`) and read the web pages when it fails; categories read the web pages
 * only (the API's category listing answers 500 and its search ignores the category); charts
 * come from the API alone (the web has no chart of its plays).
 */

export const DJUU = { code: "djuu", name: "DJUU" } as const;

export interface DjuuContext extends AdapterContext {
  /** The app API, default https://android.djuu.com/app/v1. */
  apiBaseUrl?: string;
  /** Where `file` paths live, default https://mp4.djuu.com. */
  mediaBaseUrl?: string;
  /** How long an app API channel that answered 404 rests before it is asked again (default 5 min; tests). */
  apiRestMs?: number;
}

/**
 * An app API channel that answers 404/410 is gone: it is not asked again for a while, or every
 * search would pay its round trip before the web pages. A channel down, refusing or failing is
 * the source's outage, which its breaker handles; an envelope refusing one song is that song's.
 */
const API_REST_MS = 5 * 60_000;

/**
 * djuu's app has no day/week/month charts: `playRankings` has 1 热门 (by plays) and 2 推荐
 * (editors' picks); 3 is unconfirmed. Day and week ask 热门, month and quarter 推荐, so the
 * short periods follow plays and the long ones the site's lasting picks (ADR 0020).
 */
export const DJUU_RANK_TYPE: Record<ChartPeriod, number> = { day: 1, week: 1, month: 2, quarter: 2 };

export function createDjuuAdapter(context: DjuuContext): SourceAdapter {
  const { fetcher } = context;
  const web = context.baseUrl.replace(/\/$/u, "");
  const media = (context.mediaBaseUrl ?? "https://mp4.djuu.com").replace(/\/$/u, "");
  const source = DJUU.code;
  const api = djuuApi(fetcher, (context.apiBaseUrl ?? "https://android.djuu.com/app/v1").replace(/\/$/u, ""), source);
  const playPage = (id: string) => `${web}/play/${id}.html`;

  async function getPage(url: string, what: string, signal?: AbortSignal): Promise<string> {
    return pageText(source, await fetcher.fetch({ url, encoding: "utf-8", signal }), what);
  }

  /**
   * The app API first; when it fails (down, refused, a code other than 1, an answer of another
   * shape) or has nothing to give (undefined), the web pages. The caller giving up is not hidden.
   */
  const restingUntil = new Map<string, number>();
  async function apiFirst<T>(channel: string, fromApi: () => Promise<T | undefined>, fromWeb: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (Date.now() >= (restingUntil.get(channel) ?? 0)) {
      try {
        const answer = await fromApi();
        if (answer !== undefined) return answer;
      } catch (error) {
        if (!(error instanceof SourceError) || signal?.aborted) throw error;
        if (error.kind === "not_found") restingUntil.set(channel, Date.now() + (context.apiRestMs ?? API_REST_MS));
      }
    }
    return fromWeb();
  }

  function fromAnchor(anchor: ListedAnchor, position: number): SourceItem {
    const { artist, title } = splitArtist(anchor.title);
    return {
      source,
      sourceId: anchor.id,
      url: playPage(anchor.id),
      title,
      artist,
      cover: anchor.cover,
      duration: null,
      sizeBytes: null,
      kind: classifyKind({ title: anchor.title }),
      playtype: "mp3",
      position,
      raw: { href: anchor.href, title: anchor.title, cover: anchor.cover, ...(anchor.cells.length ? { cells: anchor.cells } : {}) },
    };
  }

  function listFrom(html: string, pageUrl: string, nextPage: RegExp, what: string): SourcePage {
    const page = readListPage(html, pageUrl);
    // A page with no item, no list container and no "nothing found" text is not a djuu list any more.
    if (!page.recognised) throw new SourceError(source, "layout", `${what}: no list on the page (layout changed?)`);
    return { items: page.anchors.map((a, i) => fromAnchor(a, i + 1)), hasMore: page.hrefs.some((href) => nextPage.test(href)) };
  }

  async function searchApi(input: SearchInput, signal?: AbortSignal): Promise<SourcePage> {
    const path = `/music/search?keywords=${encodeURIComponent(input.keyword)}&page=${input.page}&row=${DJUU_SEARCH_ROWS}`;
    return apiListPage(source, await api.call(path, "search", signal), playPage, "search", { page: input.page, rows: DJUU_SEARCH_ROWS });
  }

  async function searchWeb(input: SearchInput, signal?: AbortSignal): Promise<SourcePage> {
    const url = `${web}/search?musicname=${encodeURIComponent(input.keyword)}&cid=0&list=1&page=${input.page}`;
    return listFrom(await getPage(url, "search", signal), url, new RegExp(`[?&]page=${input.page + 1}(?!\\d)`, "u"), "search");
  }

  async function detailsApi(sourceId: string, signal?: AbortSignal): Promise<SourceItemDetails> {
    const written = await api.call(`/music/details?id=${sourceId}`, "details", signal);
    const song = apiSong.safeParse(written);
    if (!song.success || song.data.id !== sourceId) throw new SourceError(source, "layout", "details: not the song asked for");
    return { ...fromApiSong(source, song.data, written as Record<string, unknown>, playPage(sourceId)), tracklist: [] };
  }

  async function detailsWeb(sourceId: string, signal?: AbortSignal): Promise<SourceItemDetails> {
    const url = playPage(sourceId);
    const page = readPlayPage(await getPage(url, "play page", signal), url);
    // The player's own data first: the <h1> is the page's heading, not always the track's name.
    const written = page.music.name?.trim() || page.heading;
    if (!written) throw new SourceError(source, "layout", "play page: neither the music script nor a heading");
    const { artist, title } = splitArtist(written);
    const duration = parseDuration(page.music.duration ?? page.music.time ?? null);
    return {
      source,
      sourceId,
      url,
      title,
      artist,
      cover: page.cover,
      duration,
      sizeBytes: null,
      kind: classifyKind({ title: written, duration }),
      playtype: "mp3",
      tracklist: [],
      raw: { heading: page.heading, music: page.music, cover: page.cover },
    };
  }

  /** The listen answer's address (listenurl is the direct m4a); undefined when it has none. */
  async function mediaApi(sourceId: string, signal?: AbortSignal): Promise<ResolvedMedia | undefined> {
    const answer = listenAnswer.safeParse(await api.call(`/music/listen?id=${sourceId}`, "listen", signal));
    if (!answer.success) throw new SourceError(source, "layout", "listen: not the known answer");
    const direct = answer.data.listenurl?.trim() || answer.data.vipListenUrl?.trim();
    return direct ? { url: direct, headers: {}, format: "m4a" } : undefined;
  }

  async function mediaWeb(sourceId: string, signal?: AbortSignal): Promise<ResolvedMedia> {
    const url = playPage(sourceId);
    let file: string | undefined;
    try {
      file = readPlayPage(await getPage(url, "play page", signal), url).music.file?.trim();
    } catch (error) {
      if (error instanceof SourceError && error.kind === "not_found") throw new SourceError(source, "expired", `item ${sourceId} no longer plays`, error.status);
      throw error;
    }
    if (!file) throw new SourceError(source, "expired", `item ${sourceId} has no playable address`);
    return { url: /^https?:/iu.test(file) ? file : `${media}/${file.replace(/^\//u, "")}.m4a`, headers: {}, format: "m4a" };
  }

  return {
    ...DJUU,

    async search(input: SearchInput, signal?: AbortSignal): Promise<SourcePage> {
      if (input.type === "mp4") return { items: [], hasMore: false }; // djuu has audio only
      const page = await apiFirst("search", () => searchApi(input, signal), () => searchWeb(input, signal), signal);
      return input.kind ? { ...page, items: page.items.filter((item) => item.kind === input.kind) } : page;
    },

    /** The web pages only (the API's category list answers 500). Page N is `/djlist/{cid}_{N}.html`; the page links its next as `/djlist/{cid}_{x}_{N+1}.html`. */
    async listCategory(category: string, page: number, signal?: AbortSignal): Promise<SourcePage> {
      if (!/^\d+$/u.test(category)) throw new SourceError(source, "not_found", `no djuu category ${category}`);
      const url = `${web}/djlist/${category}_${page}.html`;
      return listFrom(await getPage(url, "category", signal), url, new RegExp(`/djlist/${category}(?:_\\d+)?_${page + 1}\\.html(?:[?#]|$)`, "u"), "category");
    },

    async listChart(chart: { period: ChartPeriod; kind: ItemKind }, signal?: AbortSignal): Promise<SourcePage> {
      const written = await api.call(`/music/playRankings?rankType=${DJUU_RANK_TYPE[chart.period]}`, "chart", signal);
      // `position` stays the site's rank, before our kind filter.
      const page = apiListPage(source, written, playPage, "chart");
      return { ...page, items: page.items.filter((item) => item.kind === chart.kind) };
    },

    async details(sourceId: string, signal?: AbortSignal): Promise<SourceItemDetails> {
      if (!/^\d+$/u.test(sourceId)) throw new SourceError(source, "not_found", `no djuu item ${sourceId}`);
      return apiFirst("details", () => detailsApi(sourceId, signal), () => detailsWeb(sourceId, signal), signal);
    },

    async resolveMedia(sourceId: string, signal?: AbortSignal): Promise<ResolvedMedia> {
      if (!/^\d+$/u.test(sourceId)) throw new SourceError(source, "not_found", `no djuu item ${sourceId}`);
      // No address from the API (none, or the API failing): the play page's file.
      return apiFirst("listen", () => mediaApi(sourceId, signal), () => mediaWeb(sourceId, signal), signal);
    },
  };
}
