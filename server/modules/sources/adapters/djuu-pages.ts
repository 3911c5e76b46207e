import { loadPage } from "../parsers/html.js";
import { absoluteUrl } from "../normalise.js";

/**
 * Reading djuu's web pages (SOURCES.md, djuu). Items are found by the address pattern
 * `/play/{id}.html`, relative or absolute, not by a class: the site has moved between link
 * styles and list shapes (`a[title]` cards, `tr.sbg` rows, `.list_musiclist tr`,
 * `div.isgood_list p.t1 a[title]`), and all of them link items that way.
 */

export const PLAY_PATH = /\/play\/(\d+)\.html(?:[?#]|$)/u;

export interface ListedAnchor {
  id: string;
  /** The anchor's address as the page wrote it. */
  href: string;
  /** `title` attribute, else the anchor's text (`歌手 - 标题`). */
  title: string;
  cover: string | null;
  /** Site fields of the row or card around the anchor (cells' text), when there is one. */
  cells: string[];
}

/** Containers of a djuu list, present even when it has no rows: their presence tells "no results" from "changed layout". */
const LIST_CONTAINERS = [".list_musiclist", "tr.sbg", "div.isgood_list", ".djshow_contentlist", "#musiclist", ".search_list", ".music_list"];
/** What the site writes on an empty search (also the shared template's 无记录). */
const EMPTY_TEXTS = /没有找到|没有相关|暂无(数据|记录|相关)|无记录|找不到/u;

export interface ListPage {
  anchors: ListedAnchor[];
  /** False when the page has neither items, nor a known list container, nor an "empty" text. */
  recognised: boolean;
  /** Every address on the page (for the next-page link). */
  hrefs: string[];
}

/** An image's address: lazy-loading attributes first (the real cover), then `src`. */
function imageOf(img: { attr(name: string): string | undefined }, pageUrl: string): string | null {
  const src = img.attr("data-original") ?? img.attr("data-src") ?? img.attr("src");
  return src ? absoluteUrl(src, pageUrl) : null;
}

export function readListPage(html: string, pageUrl: string): ListPage {
  const $ = loadPage(html);
  const byId = new Map<string, ListedAnchor>();
  $('a[href*="/play/"]').each((_, element) => {
    const a = $(element);
    const href = a.attr("href") ?? "";
    const id = PLAY_PATH.exec(href)?.[1];
    if (!id) return;
    const title = (a.attr("title") ?? a.text()).replace(/\s+/gu, " ").trim();
    const row = a.closest("tr, li, div.isgood_list");
    const cover = imageOf(a.find("img").first(), pageUrl) ?? (row.length ? imageOf(row.find("img").first(), pageUrl) : null);
    const cells = row.is("tr") ? row.children("td").map((__, td) => $(td).text().replace(/\s+/gu, " ").trim()).get() : [];
    const seen = byId.get(id);
    // A card often links the same item twice (cover and name): one item, the best of both.
    if (seen) {
      if (!seen.title && title) seen.title = title;
      seen.cover ??= cover;
      return;
    }
    byId.set(id, { id, href, title, cover, cells });
  });
  const anchors = [...byId.values()].filter((a) => a.title !== "");
  const recognised = anchors.length > 0 || LIST_CONTAINERS.some((selector) => $(selector).length > 0) || EMPTY_TEXTS.test($("body").text());
  return { anchors, recognised, hrefs: $("a[href]").map((_, a) => $(a).attr("href") ?? "").get() };
}

export interface PlayPage {
  /** `<h1>` as written. */
  heading: string | null;
  /** Fields of the `var music = {…}` script, as written (field order varies). */
  music: Record<string, string>;
  cover: string | null;
}

/** `key: 'value'`, `key:"value"` or `key: 123` inside a JS object literal. */
const FIELD = /([A-Za-z_$][\w$]*)\s*:\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|([^,}\s]+))/gu;

export function readMusicScript(html: string): Record<string, string> | null {
  const block = /var\s+music\s*=\s*\{([\s\S]*?)\}\s*;?/u.exec(html);
  if (!block) return null;
  const fields: Record<string, string> = {};
  for (const match of block[1]!.matchAll(FIELD)) {
    const value = match[2] ?? match[3] ?? match[4] ?? "";
    fields[match[1]!] = value.replace(/\\(.)/gu, "$1");
  }
  return fields;
}

export function readPlayPage(html: string, pageUrl: string): PlayPage {
  const $ = loadPage(html);
  const heading = $("h1").first().text().replace(/\s+/gu, " ").trim() || null;
  const coverSrc = $(".play_background > img").first().attr("src") ?? $("#mcover").attr("src") ?? null;
  return { heading, music: readMusicScript(html) ?? {}, cover: coverSrc ? absoluteUrl(coverSrc, pageUrl) : null };
}
