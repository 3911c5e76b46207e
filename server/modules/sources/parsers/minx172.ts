import type { CheerioAPI } from "cheerio";
import { absoluteUrl, classifyKind, cleanTitle, splitArtist } from "../normalise.js";
import { SourceError, type ItemKind, type ResolvedMedia, type SourceItem, type SourceItemDetails, type SourcePage } from "../types.js";
import { attributesOf, imageAddress, loadPage, squashedText } from "./html.js";

/**
 * Page readers of 172Mix (www.172mix.com, code `172minx`; SOURCES.md). Pure functions from a
 * page's text to our types: the adapter fetches, these read. Every reader is given the page's
 * own address, against which links are made absolute (the site writes absolute links today,
 * relative ones in older pages).
 */

export const MINX172 = { code: "172minx", name: "172Mix" } as const;

/** Genre slugs (`/genre/{slug}`), the only lists that really page. */
export const MINX172_GENRES: Record<string, { name: string; kind?: ItemKind }> = {
  top40: { name: "Top40" },
  csds1: { name: "车载DJ", kind: "mix" },
  csds2: { name: "慢摇串烧", kind: "mix" },
  dj7suo: { name: "DJ独家" },
  dj7suocs: { name: "DJ现场" },
};

/** Chart slugs (`/ranks/{slug}`): every page number answers the same list. */
export const MINX172_RANKS = ["sole", "zwphb", "wwphb", "housephb", "sjcsds"] as const;

/** Page addresses (relative to the site's base), for the adapter. */
export const minx172Paths = {
  search: (keyword: string, page: number) => `/searches?query=${encodeURIComponent(keyword)}&page=${page}`,
  genre: (slug: string, page: number) => (page > 1 ? `/genre/${slug}/page/${page}` : `/genre/${slug}`),
  rank: (slug: (typeof MINX172_RANKS)[number]) => `/ranks/${slug}`,
  play: (id: string) => `/play/${id}`,
};

const PLAY_ID = /\/play\/([A-Za-z0-9_-]+)(?:\.html)?(?:[?#]|$)/u;
const ACTION_WORDS = /^\s*(?:试听|下载|收藏)\s*/u;
/** The site's own "nothing found" texts (our reading of a Laravel page without results). */
const NO_RESULTS = /没有找到|暂无(?:相关)?(?:数据|歌曲|舞曲|结果|内容)|未找到相关/u;

/**
 * True when the keyword has a non-ASCII character. Its firewall answers 403 to any such query
 * when logged out (SOURCES.md): the adapter never sends one (`servesQuery`), so Chinese
 * searches skip 172Mix instead of failing and opening its breaker for ASCII searches too.
 */
export function needsAsciiQuery(keyword: string): boolean {
  return /[^\x00-\x7f]/u.test(keyword);
}

/** True when a search answer is the firewall's refusal: a 403 (for any keyword; non-ASCII is the known cause). */
export function isBlockedAnswer(status: number): boolean {
  return status === 403;
}

/** The error a blocked search is reported with. */
export function blockedSearchError(keyword: string, status = 403): SourceError {
  const why = needsAsciiQuery(keyword) ? "its firewall refuses non-ASCII queries" : "its firewall refused the query";
  return new SourceError(MINX172.code, "blocked", `172Mix answered ${status}: ${why}`, status);
}

export interface ListOptions {
  /** Ranks answer the same list on every page number: never a next page. Default true. */
  paged?: boolean;
  /** The site's own category (a genre or chart known to be mixes). */
  siteKind?: ItemKind;
}

/**
 * A search, genre or rank page: `li.track-item a[href*="/play/"]`.
 *
 * "No results" or a changed layout: the page is ours to read when it has track items, or the
 * list container (`.track-list`, `ul`/`div` of track items) with no item in it, or the site's
 * own "nothing found" text. A page with none of these (or whose track items hold no play link,
 * or whose list holds rows under another class) has changed: `layout`, never an empty list,
 * so a renamed class surfaces as a source error instead of silently empty searches.
 */
export function readMinxList(html: string, pageUrl: string, options: ListOptions = {}): SourcePage {
  const $ = loadPage(html);
  const rows = $("li.track-item");
  if (rows.length === 0) {
    const container = $(".track-list, .tracks-list, #track-list").first();
    const bodyText = $("body").text();
    const emptyContainer = container.length > 0 && container.children("li, div").length === 0;
    if (emptyContainer || NO_RESULTS.test(bodyText)) return { items: [], hasMore: false };
    throw new SourceError(MINX172.code, "layout", `172Mix list page without li.track-item nor a "no results" marker: ${pageUrl}`);
  }

  const items: SourceItem[] = [];
  const seen = new Set<string>();
  rows.each((_, row) => {
    const item = readTrackItem($, $(row), pageUrl, options.siteKind);
    if (!item || seen.has(item.sourceId)) return;
    seen.add(item.sourceId);
    items.push({ ...item, position: items.length + 1 });
  });
  if (items.length === 0) {
    throw new SourceError(MINX172.code, "layout", `172Mix track items without a /play/ link: ${pageUrl}`);
  }
  const paged = options.paged ?? true;
  return { items, hasMore: paged && hasNextPage($) };
}

/** A rank page: the same list on every page number, so never a next page. */
export function readMinxRank(html: string, pageUrl: string, siteKind?: ItemKind): SourcePage {
  return readMinxList(html, pageUrl, { paged: false, siteKind });
}

function readTrackItem($: CheerioAPI, row: ReturnType<CheerioAPI>, pageUrl: string, siteKind?: ItemKind): Omit<SourceItem, "position"> | null {
  const links = row.find('a[href*="/play/"]').toArray().map((a) => $(a));
  // The link to read is the first with words of its own (not a bare 试听 button); else the first
  // with a title (a cover link). Not simply the first: in unclosed markup the parser reopens the
  // previous row's <a> inside this row (HTML's adoption agency), around the image.
  const wordsOf = (a: ReturnType<CheerioAPI>) => squashedText(a.text()).replace(ACTION_WORDS, "");
  const link = links.find((a) => wordsOf(a) !== "") ?? links.find((a) => a.attr("title")?.trim());
  if (!link) return null;
  const href = link.attr("href") ?? "";
  const url = absoluteUrl(href, pageUrl);
  const id = PLAY_ID.exec(new URL(url).pathname)?.[1];
  if (!id) return null;
  const siteTitle = link.attr("title")?.trim() || wordsOf(link);

  const img = row.find("img").first();
  const coverHref = img.length ? imageAddress(img) : null;
  const { artist, title } = splitArtist(siteTitle);
  return {
    source: MINX172.code,
    sourceId: id,
    url,
    title,
    artist,
    cover: coverHref ? absoluteUrl(coverHref, pageUrl) : null,
    duration: null,
    sizeBytes: null,
    kind: classifyKind({ siteKind, title: siteTitle }),
    playtype: "mp3",
    raw: {
      href,
      title: siteTitle,
      link: attributesOf(link),
      image: img.length ? attributesOf(img) : null,
      text: squashedText(row.text()),
    },
  };
}

/** Laravel's paginator: `a[rel=next]`; older pages: a link reading 下一页 or ›/». */
function hasNextPage($: CheerioAPI): boolean {
  if ($('a[rel="next"]').length > 0) return true;
  return $(".pagination a, .pages a, .page a")
    .toArray()
    .some((a) => /^(?:下一页|›|»|>)$/u.test(squashedText($(a).text())));
}

export interface MinxAlbum {
  sourceId: string;
  url: string;
  title: string;
  cover: string | null;
  raw: Record<string, unknown>;
}

/** Album lists (`/album/order-hot`): `a[href*="/album/"]`, image in data-src or src. The same list on every page. */
export function readMinxAlbums(html: string, pageUrl: string): MinxAlbum[] {
  const $ = loadPage(html);
  const albums = new Map<string, MinxAlbum>();
  $('a[href*="/album/"]').each((_, a) => {
    const link = $(a);
    const href = link.attr("href") ?? "";
    const url = absoluteUrl(href, pageUrl);
    const id = /\/album\/(\d+)(?:\.html)?\/?$/u.exec(new URL(url).pathname)?.[1];
    if (!id) return; // /album/order-hot and friends are the list pages themselves
    const img = link.find("img").first();
    const existing = albums.get(id);
    const siteTitle = link.attr("title")?.trim() || img.attr("alt")?.trim() || squashedText(link.text());
    const coverHref = img.length ? imageAddress(img) : null;
    if (existing) {
      // A card often links its image and its name separately: merge them.
      existing.cover ??= coverHref ? absoluteUrl(coverHref, pageUrl) : null;
      if (!existing.title && siteTitle) existing.title = cleanTitle(siteTitle);
      return;
    }
    albums.set(id, {
      sourceId: id,
      url,
      title: cleanTitle(siteTitle),
      cover: coverHref ? absoluteUrl(coverHref, pageUrl) : null,
      raw: { href, link: attributesOf(link), image: img.length ? attributesOf(img) : null },
    });
  });
  if (albums.size === 0 && !NO_RESULTS.test($("body").text())) {
    throw new SourceError(MINX172.code, "layout", `172Mix album page without album links: ${pageUrl}`);
  }
  return [...albums.values()];
}

/** `var media = {id:"…", name:"…", src:"…"}`: double-quoted values, unquoted keys, any order. */
const MEDIA_OBJECT = /var\s+media\s*=\s*\{([^{}]*)\}/u;
const MEDIA_FIELD = /["']?([A-Za-z_$][\w$]*)["']?\s*:\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|(-?\d+(?:\.\d+)?))/gu;
/** Texts of a page whose track was taken down. */
const REMOVED = /不存在|已删除|已下架|已被删除/u;

export function readMediaObject(html: string): Record<string, string> | null {
  const body = MEDIA_OBJECT.exec(html)?.[1];
  if (body === undefined) return null;
  const fields: Record<string, string> = {};
  for (const match of body.matchAll(MEDIA_FIELD)) {
    const [, key, double, single, number] = match;
    fields[key] = double !== undefined ? unescapeJs(double) : single !== undefined ? unescapeJs(single) : number;
  }
  return fields;
}

function unescapeJs(text: string): string {
  try {
    return JSON.parse(`"${text.replace(/\\'/gu, "'")}"`) as string;
  } catch {
    return text;
  }
}

/**
 * The first address on the site's media host (`https://mp3.172mix.com/….m4a|mp3`, `\/` escapes
 * read as `/`): a page whose player is given its address directly (`setMedia({m4a:"…"})`) has no
 * `var media`.
 */
const SITE_MEDIA = /https?:\/\/mp3\.172mix\.com\/[^\s"'<>\\]+?\.(?:m4a|mp3)(?:\?[^\s"'<>\\]*)?(?=["'\s<>\\),;]|$)/iu;

export function firstSiteMediaAddress(html: string): string | null {
  return SITE_MEDIA.exec(html.replace(/\\\//gu, "/"))?.[0] ?? null;
}

/** `<title>{name}试听,mp3下载 - 172Mix</title>` → the name. */
export function nameFromPageTitle(pageTitle: string): string {
  return pageTitle.replace(/\s*试听\s*[,，]?\s*mp3下载\s*[-–—_|]\s*172Mix\s*$/iu, "").trim();
}

/**
 * The play page `/play/{id}`: the title and the media address.
 *
 * The address is `var media`'s `src`; a page without it (its player given the address directly,
 * `setMedia({m4a:"…"})`) gives the first address on the site's media host, its title from the
 * page's `<title>`. With neither, a page that says the track was removed means the address no
 * longer resolves: `expired` (the player shows 媒体地址无效). Any other page has changed: `layout`.
 */
export function readMinxPlayPage(html: string, pageUrl: string): { details: SourceItemDetails; media: ResolvedMedia } {
  const $ = loadPage(html);
  const media = readMediaObject(html);
  const pageTitle = squashedText($("title").first().text());
  const player = media?.src ? null : firstSiteMediaAddress(html);
  const src = media?.src || player;
  if (!src) {
    const removed = REMOVED.test($("body").text()) || REMOVED.test(pageTitle);
    throw new SourceError(MINX172.code, removed ? "expired" : "layout", removed ? `172Mix track removed: ${pageUrl}` : `172Mix play page without var media nor a media address: ${pageUrl}`);
  }

  const siteTitle = media?.name || nameFromPageTitle(pageTitle);
  if (!siteTitle) throw new SourceError(MINX172.code, "layout", `172Mix play page without a name: ${pageUrl}`);
  const { artist, title } = splitArtist(siteTitle);
  const mediaUrl = absoluteUrl(src, pageUrl);
  const cover = $('meta[property="og:image"]').attr("content") ?? media?.pic ?? media?.cover ?? null;
  const id = media?.id || PLAY_ID.exec(new URL(pageUrl).pathname)?.[1];
  if (!id) throw new SourceError(MINX172.code, "layout", `172Mix play page without an id: ${pageUrl}`);

  const details: SourceItemDetails = {
    source: MINX172.code,
    sourceId: id,
    url: pageUrl,
    title,
    artist,
    cover: cover ? absoluteUrl(cover, pageUrl) : null,
    duration: null,
    sizeBytes: null,
    kind: classifyKind({ title: siteTitle }),
    playtype: "mp3",
    raw: { media, pageTitle, ...(player ? { player } : {}) },
    tracklist: [],
  };
  const format = /\.mp3(?:[?#]|$)/iu.test(mediaUrl) ? "mp3" : "m4a";
  // Scrapers send the site's home as Referer (SOURCES.md: "? required"): harmless, so we do too.
  return { details, media: { url: mediaUrl, headers: { Referer: `${new URL(pageUrl).origin}/` }, format } };
}
