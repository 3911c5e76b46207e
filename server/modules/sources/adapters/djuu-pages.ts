import type { AnyNode, Element } from "domhandler";
import { findAll, findOne, textContent } from "domutils";
import { parseDocument } from "htmlparser2";
import { loadPage, squashedText } from "../parsers/html.js";
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
function imageOf(img: Element | null, pageUrl: string): string | null {
  if (!img) return null;
  const src = img.attribs["data-original"] ?? img.attribs["data-src"] ?? img.attribs.src;
  return src ? absoluteUrl(src, pageUrl) : null;
}

const isTag = (node: AnyNode): node is Element => node.type === "tag";
const isImage = (node: AnyNode): node is Element => isTag(node) && node.name === "img";
/** The first image inside an element, in document order. */
const firstImage = (element: Element) => findOne(isImage, element.children, true);

/** `closest("tr, li, div.isgood_list")` of an anchor: the row or card it sits in. */
function rowOf(anchor: Element): Element | null {
  for (let node = anchor.parent; node && isTag(node); node = node.parent) {
    if (node.name === "tr" || node.name === "li") return node;
    if (node.name === "div" && (node.attribs.class ?? "").split(/\s+/u).includes("isgood_list")) return node;
  }
  return null;
}

/**
 * Read on htmlparser2's document directly (domutils): a search page is read once per search,
 * and a selector engine's document and selectors cost several times the parse itself
 * (bench/README.md, 2026-11-29: ~260 µs a fixture page, of which the parse was ~40).
 */
export function readListPage(html: string, pageUrl: string): ListPage {
  const document = parseDocument(html);
  const links = findAll((element) => element.name === "a" && element.attribs.href !== undefined, document.children);
  const byId = new Map<string, ListedAnchor>();
  for (const a of links) {
    const href = a.attribs.href!;
    if (!href.includes("/play/")) continue;
    const id = PLAY_PATH.exec(href)?.[1];
    if (!id) continue;
    const title = squashedText(a.attribs.title ?? textContent(a));
    const row = rowOf(a);
    const cover = imageOf(firstImage(a), pageUrl) ?? (row ? imageOf(firstImage(row), pageUrl) : null);
    const cells = row?.name === "tr" ? row.children.filter((cell): cell is Element => isTag(cell) && cell.name === "td").map((td) => squashedText(textContent(td))) : [];
    const seen = byId.get(id);
    // A card often links the same item twice (cover and name): one item, the best of both.
    if (seen) {
      if (!seen.title && title) seen.title = title;
      seen.cover ??= cover;
      continue;
    }
    byId.set(id, { id, href, title, cover, cells });
  }
  const anchors = [...byId.values()].filter((a) => a.title !== "");
  return { anchors, recognised: anchors.length > 0 || knownEmptyOrList(html), hrefs: links.map((a) => a.attribs.href!) };
}

/** No item on the page: is it still a djuu list (a known container, or an "empty" text), or a changed layout? */
function knownEmptyOrList(html: string): boolean {
  const $ = loadPage(html);
  return LIST_CONTAINERS.some((selector) => $(selector).length > 0) || EMPTY_TEXTS.test($("body").text());
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
  const heading = squashedText($("h1").first().text()) || null;
  const coverSrc = $(".play_background > img").first().attr("src") ?? $("#mcover").attr("src") ?? null;
  return { heading, music: readMusicScript(html) ?? {}, cover: coverSrc ? absoluteUrl(coverSrc, pageUrl) : null };
}
