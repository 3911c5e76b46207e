import { z } from "zod";
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
import { readListPage, readPlayPage, type ListedAnchor } from "./djuu-pages.js";
import { pageJson, pageText } from "./site-answer.js";

/**
 * djuu (www.djuu.com, DJ呦呦; SOURCES.md). Search and categories read the web pages (the app
 * API's category listing answers 500 and its search ignores the category); charts and the
 * playable address come from the app API; details from the play page.
 */

export const DJUU = { code: "djuu", name: "DJUU" } as const;

export interface DjuuContext extends AdapterContext {
  /** The app API, default https://android.djuu.com/app/v1. */
  apiBaseUrl?: string;
  /** Where `file` paths live, default https://mp4.djuu.com. */
  mediaBaseUrl?: string;
}

/**
 * djuu's app has no day/week/month charts: `playRankings` has 1 热门 (by plays) and 2 推荐
 * (editors' picks); 3 is unconfirmed. Day and week ask 热门, month and quarter 推荐, so the
 * short periods follow plays and the long ones the site's lasting picks (ADR 0020).
 */
export const DJUU_RANK_TYPE: Record<ChartPeriod, number> = { day: 1, week: 1, month: 2, quarter: 2 };

const envelope = z.looseObject({ code: z.coerce.number(), msg: z.string().nullish(), data: z.unknown() });
const idValue = z.union([z.string(), z.number()]).transform(String);
const apiSong = z.looseObject({
  id: idValue,
  title: z.string(),
  coverImgShow: z.string().nullish(),
  duration: z.union([z.number(), z.string()]).nullish(),
  size: z.union([z.number(), z.string()]).nullish(),
  hits_num: z.union([z.number(), z.string()]).nullish(),
  create_time: z.union([z.number(), z.string()]).nullish(),
});
const songList = z.looseObject({ list: z.array(apiSong), total: z.coerce.number().nullish() });
const listen = z.looseObject({ listenurl: z.string().nullish(), vipListenUrl: z.string().nullish() });

export function createDjuuAdapter(context: DjuuContext): SourceAdapter {
  const { fetcher } = context;
  const web = context.baseUrl.replace(/\/$/u, "");
  const api = (context.apiBaseUrl ?? "https://android.djuu.com/app/v1").replace(/\/$/u, "");
  const media = (context.mediaBaseUrl ?? "https://mp4.djuu.com").replace(/\/$/u, "");
  const source = DJUU.code;
  const playPage = (id: string) => `${web}/play/${id}.html`;

  async function getPage(url: string, what: string, signal?: AbortSignal): Promise<string> {
    return pageText(source, await fetcher.fetch({ url, encoding: "utf-8", signal }), what);
  }

  /** The app API's `data`, after its envelope: any code but 1 is an error. */
  async function callApi(path: string, what: string, signal?: AbortSignal): Promise<unknown> {
    const answer = await fetcher.fetch({ url: `${api}${path}`, headers: { Accept: "application/json" }, signal });
    const parsed = envelope.safeParse(pageJson(source, answer, what));
    if (!parsed.success) throw new SourceError(source, "layout", `${what}: not the app API's envelope`);
    if (parsed.data.code !== 1) throw new SourceError(source, "http", `${what}: code ${parsed.data.code} ${parsed.data.msg ?? ""}`.trim());
    return parsed.data.data;
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

  return {
    ...DJUU,

    async search(input: SearchInput, signal?: AbortSignal): Promise<SourcePage> {
      if (input.type === "mp4") return { items: [], hasMore: false }; // djuu has audio only
      const url = `${web}/search?musicname=${encodeURIComponent(input.keyword)}&cid=0&list=1&page=${input.page}`;
      const page = listFrom(await getPage(url, "search", signal), url, new RegExp(`[?&]page=${input.page + 1}(?!\\d)`, "u"), "search");
      return input.kind ? { ...page, items: page.items.filter((item) => item.kind === input.kind) } : page;
    },

    async listCategory(category: string, page: number, signal?: AbortSignal): Promise<SourcePage> {
      if (!/^\d+$/u.test(category)) throw new SourceError(source, "not_found", `no djuu category ${category}`);
      const url = `${web}/djlist/${category}_${page}.html`;
      return listFrom(await getPage(url, "category", signal), url, new RegExp(`/djlist/${category}_${page + 1}\\.html`, "u"), "category");
    },

    async listChart(chart: { period: ChartPeriod; kind: ItemKind }, signal?: AbortSignal): Promise<SourcePage> {
      const written = await callApi(`/music/playRankings?rankType=${DJUU_RANK_TYPE[chart.period]}`, "chart", signal);
      const data = songList.safeParse(written);
      if (!data.success) throw new SourceError(source, "layout", "chart: the list is not in the known shape");
      const rawList = (written as { list: Record<string, unknown>[] }).list;
      const items = data.data.list.map((song, i): SourceItem => {
        const { artist, title } = splitArtist(song.title);
        const duration = parseDuration(song.duration ?? null);
        const sizeBytes = song.size === null || song.size === undefined || song.size === "" ? null : Number(song.size) || null;
        return {
          source,
          sourceId: song.id,
          url: playPage(song.id),
          title,
          artist,
          cover: song.coverImgShow || null,
          duration,
          sizeBytes,
          kind: classifyKind({ title: song.title, duration, sizeBytes }),
          playtype: "mp3",
          position: i + 1, // the site's rank, before our kind filter
          raw: rawList[i]!, // as the site wrote it (ids stay numbers)
        };
      });
      return { items: items.filter((item) => item.kind === chart.kind), hasMore: false, total: data.data.total ?? undefined };
    },

    async details(sourceId: string, signal?: AbortSignal): Promise<SourceItemDetails> {
      if (!/^\d+$/u.test(sourceId)) throw new SourceError(source, "not_found", `no djuu item ${sourceId}`);
      const url = playPage(sourceId);
      const page = readPlayPage(await getPage(url, "play page", signal), url);
      const written = page.heading ?? page.music.name ?? null;
      if (!written) throw new SourceError(source, "layout", "play page: neither a heading nor the music script");
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
    },

    async resolveMedia(sourceId: string, signal?: AbortSignal): Promise<ResolvedMedia> {
      if (!/^\d+$/u.test(sourceId)) throw new SourceError(source, "not_found", `no djuu item ${sourceId}`);
      // The app API's listenurl is the direct m4a (no Referer check). When it has none, the play page's file.
      try {
        const answer = listen.safeParse(await callApi(`/music/listen?id=${sourceId}`, "listen", signal));
        const direct = answer.success ? answer.data.listenurl?.trim() : "";
        if (direct) return { url: direct, headers: {}, format: "m4a" };
      } catch (error) {
        if (!(error instanceof SourceError) || !["http", "not_found", "layout"].includes(error.kind)) throw error;
      }
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
    },
  };
}
