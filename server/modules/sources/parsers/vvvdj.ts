import type { SideKey } from "@contracts/chart-keys";
import type { CheerioAPI } from "cheerio";
import { z } from "zod";
import { absoluteUrl, classifyKind, splitArtist } from "../normalise.js";
import { SourceError, type ItemKind, type ResolvedMedia, type SourceItem, type SourceItemDetails, type SourcePage } from "../types.js";
import { attributesOf, loadPage, squashedText } from "./html.js";
import { decodePlayUrl, findPlayUrlCall, uptExpiresAt } from "./vvvdj-playurl.js";

/**
 * Page readers of 清风DJ音乐网 (www.vvvdj.com, code `vvvdj`; SOURCES.md). Pure functions from a
 * page's text to our types; links are made absolute against the page's own address.
 *
 * "No results" or a changed layout, for every list: the site's own marker of an empty answer
 * ("共搜索到 0", "无记录...") or its list container with no row in it is no results; a page
 * with no recognisable container at all (or rows we cannot read) has changed: `layout`.
 */

export const VVVDJ = { code: "vvvdj", name: "清风DJ" } as const;

/** Category pages `/sort/c{N}/{sub}-{lang}-0-{order}-{page}.html`; sub ids are global. */
export const VVVDJ_CATEGORIES: Record<string, { name: string; subs: number[]; kind?: ItemKind }> = {
  c1: { name: "的高串烧", subs: [1, 2], kind: "mix" },
  c2: { name: "慢摇串烧", subs: [3, 4, 5, 33], kind: "mix" },
  c3: { name: "中文DISCO", subs: [27, 28, 29] },
  c4: { name: "外文DISCO", subs: [30, 31, 32] },
  c5: { name: "中文CLUB", subs: [6, 7, 9] },
  c6: { name: "外文CLUB", subs: [10, 11, 13] },
  c7: { name: "电音HOUSE", subs: [14, 15, 16, 17, 18, 19] },
  c8: { name: "酒吧潮歌", subs: [20, 21, 22, 23, 25, 26] },
  c9: { name: "交谊舞曲", subs: Array.from({ length: 18 }, (_, i) => 34 + i) },
};
export const VVVDJ_SORT_ORDERS = { recommended: 1, yearlyPlays: 6, yearlyDownloads: 7 } as const;
export const VVVDJ_LANGUAGES = { all: 0, mandarin: 5 } as const;

/** The address of a category page. */
export function vvvdjCategoryPath(category: string, sub: number, page: number, lang = 0, order = 1): string {
  return `/sort/${category}/${sub}-${lang}-0-${order}-${page}.html`;
}

/** Other page addresses (relative to the site's base), for the adapter. Search cid: 0 all, 1 串烧, 2 单曲; list 3 热播. */
export const vvvdjPaths = {
  search: (keyword: string, page: number, cid: 0 | 1 | 2 = 0, list = 3) => `/search/so?key=${encodeURIComponent(keyword)}&cid=${cid}&list=${list}&page=${page}`,
  play: (id: string) => `/play/${id}.html`,
  /** Needs `X-Requested-With: XMLHttpRequest`. */
  temp: (ids: string[]) => `/play/ajax/temp?ids=${ids.map(encodeURIComponent).join(",")}`,
  home: () => "/",
};

const PLAY_ID = /\/play\/(\d+)\.html/u;

export interface ReadOptions {
  /** The site's own kind when the caller knows it (search cid 1 串烧 / 2 单曲, category c1/c2). */
  siteKind?: ItemKind;
}

function layout(message: string): SourceError {
  return new SourceError(VVVDJ.code, "layout", `清风DJ ${message}`);
}

function toItem(input: { id: string; href?: string; siteTitle: string; pageUrl: string; position?: number; siteKind?: ItemKind; raw: Record<string, unknown> }): SourceItem {
  const { artist, title } = splitArtist(input.siteTitle);
  return {
    source: VVVDJ.code,
    sourceId: input.id,
    url: absoluteUrl(input.href || `/play/${input.id}.html`, input.pageUrl),
    title,
    artist,
    cover: null,
    duration: null,
    sizeBytes: null,
    kind: classifyKind({ siteKind: input.siteKind, title: input.siteTitle }),
    playtype: "mp3",
    ...(input.position === undefined ? {} : { position: input.position }),
    raw: input.raw,
  };
}

/** Items from play links, in page order, each id once (a row often links its title and a 试听 button). */
function itemsFromLinks($: CheerioAPI, links: ReturnType<CheerioAPI>, pageUrl: string, siteKind: ItemKind | undefined, titleOf: (a: ReturnType<CheerioAPI>) => string): SourceItem[] {
  const items: SourceItem[] = [];
  const seen = new Set<string>();
  links.each((_, element) => {
    const a = $(element);
    const href = a.attr("href") ?? "";
    const id = PLAY_ID.exec(href)?.[1];
    const siteTitle = titleOf(a);
    if (!id || !siteTitle || seen.has(id)) return;
    seen.add(id);
    items.push(toItem({ id, href, siteTitle, pageUrl, position: items.length + 1, siteKind, raw: { href, title: siteTitle, link: attributesOf(a) } }));
  });
  return items;
}

const DESKTOP_TOTAL = /共搜索到\s*(\d+)/u;
const PAGING = /个记录\s*(\d+)\s*\/\s*(\d+)\s*页/u;
const NO_RECORDS = /无记录|没有找到|暂无记录/u;

/**
 * A search page. Desktop: the total after "共搜索到"; items are the titled play links between
 * that text and the comment "左侧结束" (the right column repeats hot tracks); paging "个记录 n/M页".
 * Mobile: "无记录..." means none; items `<a href="/play/{id}.html"><p>{title}` with `<em>`
 * highlights; paging "n/M" in `.pagetext`.
 */
export function readVvvdjSearch(html: string, pageUrl: string, options: ReadOptions = {}): SourcePage {
  const $ = loadPage(html);
  const text = $("body").text();
  const total = DESKTOP_TOTAL.exec(text);
  if (total) {
    const start = html.indexOf("共搜索到");
    const end = html.indexOf("左侧结束", start);
    if (end < 0) throw layout(`search page without its 左侧结束 marker: ${pageUrl}`);
    const $left = loadPage(html.slice(start, end));
    const items = itemsFromLinks($left, $left('a[href*="/play/"][title]'), pageUrl, options.siteKind, (a) => a.attr("title")?.trim() ?? "");
    const count = Number(total[1]);
    if (count > 0 && items.length === 0) throw layout(`search page says ${count} records but lists none: ${pageUrl}`);
    const paging = PAGING.exec(text);
    return { items, total: count, hasMore: paging ? Number(paging[1]) < Number(paging[2]) : false };
  }

  const mobileLinks = $('a[href*="/play/"]').filter((_, a) => $(a).children("p").length > 0);
  if (mobileLinks.length > 0) {
    const items = itemsFromLinks($, mobileLinks, pageUrl, options.siteKind, (a) => squashedText(a.children("p").first().text()));
    const paging = /(\d+)\s*\/\s*(\d+)/u.exec($(".pagetext").first().text());
    return { items, hasMore: paging ? Number(paging[1]) < Number(paging[2]) : false };
  }
  if (NO_RECORDS.test(text)) return { items: [], total: 0, hasMore: false };
  throw layout(`search page in no known shape: ${pageUrl}`);
}

/**
 * A category page. The table shape: `.list_musiclist tr` after the header row, td[0]
 * `input.sortid[value=id]`, td[1] the id, td[2] the name (`.t1`), td[4] the date `YYYY/MM/DD`.
 * The 2023 shape: links in `div.sort_list_left_ct … li a` (@title, @href). Next page: the `>`
 * link of `div.list_split_page form li.b`.
 */
export function readVvvdjCategory(html: string, pageUrl: string, options: ReadOptions = {}): SourcePage {
  const $ = loadPage(html);
  const hasMore = $("div.list_split_page form li.b a")
    .toArray()
    .some((a) => squashedText($(a).text()) === ">");

  const table = $(".list_musiclist").first();
  if (table.length > 0) {
    const items: SourceItem[] = [];
    table.find("tr").slice(1).each((_, row) => {
      const cells = $(row).children("td");
      if (cells.length === 0) return; // spacer rows
      const id = cells.eq(0).find("input.sortid").attr("value")?.trim() || squashedText(cells.eq(1).text());
      const name = cells.eq(2).find(".t1").addBack(".t1").first();
      const siteTitle = name.attr("title")?.trim() || squashedText(name.text());
      if (!/^\d+$/u.test(id) || !siteTitle) throw layout(`category row without an id or a name: ${pageUrl}`);
      const date = squashedText(cells.eq(4).text());
      items.push(toItem({
        id,
        siteTitle,
        pageUrl,
        position: items.length + 1,
        siteKind: options.siteKind,
        raw: { id, title: siteTitle, href: name.find("a").addBack("a").attr("href") ?? null, date: /^\d{4}\/\d{2}\/\d{2}$/u.test(date) ? date : null, cells: cells.toArray().map((c) => squashedText($(c).text())) },
      }));
    });
    return { items, hasMore: hasMore && items.length > 0 };
  }

  const box = $("div.sort_list_left_ct").first();
  if (box.length > 0) {
    const links = box.find("li a[href]");
    const items = itemsFromLinks($, links.filter((_, a) => PLAY_ID.test($(a).attr("href") ?? "")), pageUrl, options.siteKind, (a) => a.attr("title")?.trim() || squashedText(a.text()));
    if (links.length > 0 && items.length === 0) throw layout(`category list whose links are not play links: ${pageUrl}`);
    return { items, hasMore: hasMore && items.length > 0 };
  }
  throw layout(`category page in no known shape: ${pageUrl}`);
}

/** Our chart keys of the home widget's tabs (串烧/单曲 × 周榜/月榜/季榜). */
const WIDGET_KINDS: Array<[RegExp, "rank" | "dan_rank"]> = [[/串烧/u, "rank"], [/单曲/u, "dan_rank"]];
const WIDGET_PERIODS: Array<[RegExp, "week" | "month" | "quarter"]> = [[/周/u, "week"], [/月/u, "month"], [/季/u, "quarter"]];
export type VvvdjChartKey = Exclude<SideKey, "rank_day">;

/**
 * The home page's chart widget, top 10 of each tab. SOURCES.md describes it only in words; the
 * markup read here (`.index_rank`, kind tabs `li[data-box]`, period tabs `[data-list]`, lists
 * by id) is OUR GUESS, as in the fixture: repair it against the real page when it is reachable.
 * We follow the tabs by their labels (串烧/单曲, 周/月/季), not by ids, so a renamed id still reads.
 */
export function readVvvdjCharts(html: string, pageUrl: string): Record<VvvdjChartKey, SourcePage> {
  const $ = loadPage(html);
  const widget = $(".index_rank").first();
  if (widget.length === 0) throw layout(`home page without its chart widget: ${pageUrl}`);
  const charts: Partial<Record<VvvdjChartKey, SourcePage>> = {};
  widget.find("[data-box]").each((_, tab) => {
    const kind = WIDGET_KINDS.find(([label]) => label.test($(tab).text()))?.[1];
    const box = widget.find(`#${$(tab).attr("data-box")}`);
    if (!kind || box.length === 0) return;
    box.find("[data-list]").each((_, periodTab) => {
      const period = WIDGET_PERIODS.find(([label]) => label.test($(periodTab).text()))?.[1];
      const list = box.find(`#${$(periodTab).attr("data-list")}`);
      if (!period || list.length === 0) return;
      const items = itemsFromLinks($, list.find('a[href*="/play/"]'), pageUrl, kind === "rank" ? "mix" : "single", (a) => a.attr("title")?.trim() || squashedText(a.text()));
      charts[`${kind}_${period}`] = { items: items.slice(0, 10), hasMore: false };
    });
  });
  const keys: VvvdjChartKey[] = ["rank_week", "rank_month", "rank_quarter", "dan_rank_week", "dan_rank_month", "dan_rank_quarter"];
  const missing = keys.filter((key) => !charts[key]);
  if (missing.length > 0) throw layout(`chart widget without ${missing.join(", ")}: ${pageUrl}`);
  return charts as Record<VvvdjChartKey, SourcePage>;
}

/** Texts of a page whose track was taken down. */
const REMOVED = /不存在|已删除|已被删除|已下架/u;

/**
 * The play page `/play/{id}.html`: the title in `<h1>`, the stream address decoded from the
 * `playurl=x.O000O0OO0O0OO('a','b')` call (an HLS playlist with an expiring `upt` token).
 * Without that call, a page that says the track was removed is `expired` (媒体地址无效 in the
 * player); any other page has changed: `layout`.
 */
export function readVvvdjPlayPage(html: string, pageUrl: string): { details: SourceItemDetails; media: ResolvedMedia } {
  const $ = loadPage(html);
  const heading = squashedText($("h1").first().text());
  const call = findPlayUrlCall(html);
  if (!call) {
    const removed = REMOVED.test($("body").text());
    throw new SourceError(VVVDJ.code, removed ? "expired" : "layout", removed ? `清风DJ track removed: ${pageUrl}` : `清风DJ play page without its playurl call: ${pageUrl}`);
  }
  if (!heading) throw layout(`play page without an <h1>: ${pageUrl}`);
  const id = PLAY_ID.exec(new URL(pageUrl).pathname)?.[1];
  if (!id) throw layout(`play page address without an id: ${pageUrl}`);

  const url = decodePlayUrl(call.encoded, call.key);
  const cover = $('meta[property="og:image"]').attr("content");
  const item = toItem({ id, siteTitle: heading, pageUrl, raw: { h1: heading, encoded: call.encoded, key: call.key } });
  const details: SourceItemDetails = { ...item, url: pageUrl, cover: cover ? absoluteUrl(cover, pageUrl) : null, tracklist: [] };
  const media: ResolvedMedia = {
    url,
    // One public script sends the site's home as Referer; harmless when not checked.
    headers: { Referer: `${new URL(pageUrl).origin}/` },
    format: /\.m3u8(?:[?#]|$)/iu.test(url) ? "hls" : /\.mp4(?:[?#]|$)/iu.test(url) ? "mp4" : "m4a",
  };
  const expiresAt = uptExpiresAt(url);
  if (expiresAt !== undefined) media.expiresAt = expiresAt;
  return { details, media };
}

/** `/play/ajax/temp` rows: `id` and `musicname` are known; every other field is kept in raw. */
const tempAnswer = z.looseObject({
  Result: z.coerce.number(),
  Data: z.array(z.looseObject({ id: z.union([z.number().int(), z.string().regex(/^\d+$/u)]), musicname: z.string().min(1) })).nullish(),
});

/**
 * `/play/ajax/temp?ids=`: the body is a JSON string that itself holds
 * `{Result:200, Data:[{id, musicname, …}]}` (double-encoded). A Result other than 200 is the
 * site refusing (`http`); a body of another shape is a changed layout.
 */
export function readVvvdjTemp(body: string, pageUrl: string): SourceItem[] {
  let value: unknown;
  try {
    value = JSON.parse(body);
    if (typeof value === "string") value = JSON.parse(value);
  } catch {
    throw layout(`temp answer is not JSON: ${pageUrl}`);
  }
  const parsed = tempAnswer.safeParse(value);
  if (!parsed.success) throw layout(`temp answer of another shape (${parsed.error.issues[0]?.path.join(".")}): ${pageUrl}`);
  if (parsed.data.Result !== 200) throw new SourceError(VVVDJ.code, "http", `清风DJ temp answer Result ${parsed.data.Result}: ${pageUrl}`);
  return (parsed.data.Data ?? []).map((row, index) => toItem({ id: String(row.id), siteTitle: row.musicname, pageUrl, position: index + 1, raw: row }));
}
