import type { ItemKind } from "./types.js";

/**
 * Our reading of what the DJ sites write (SOURCES.md, "Common conventions"). Every adapter
 * normalises through these, and keeps the site's own text in `raw`.
 */

/** Exclusive prefixes like 【DJUU独家】 or 【172Mix独家】 and site suffixes are not part of a title. */
const BRACKET_PREFIX = /^\s*【[^】]{1,20}】\s*/u;
const SITE_SUFFIX = /\s*(试听|在线试听)?\s*[,，]?\s*(mp3下载)?\s*-\s*(172Mix|DJUU|DJ呦呦|清风DJ音乐网|清风DJ)\s*$/iu;

export function cleanTitle(text: string): string {
  return text.replace(/\s+/gu, " ").replace(BRACKET_PREFIX, "").replace(SITE_SUFFIX, "").trim();
}

/**
 * Singles are written `歌手 - 歌名(Dj名 风格 Rmx 年份)`: the artist is what stands before the
 * first " - " when the rest is not empty. Suites (`地名Dj名-全中文…串烧`, no spaces around the
 * dash) keep their whole title and no artist.
 */
export function splitArtist(text: string): { artist: string | null; title: string } {
  const title = cleanTitle(text);
  const at = title.indexOf(" - ");
  if (at > 0 && at < title.length - 3) {
    return { artist: title.slice(0, at).trim(), title: title.slice(at + 3).trim() };
  }
  return { artist: null, title };
}

const MIX_WORDS = ["串烧", "mashup", "mash up", "mixset", "megamix", "连续串", "大串烧", "串烧版", "连续播放"];
const MIX_MIN_BYTES = 100 * 1024 * 1024;
const MIX_MIN_SECONDS = 30 * 60;

/**
 * Mix (套曲/串烧) or single: the site's own category first; else a name keyword; else a size of
 * 100 MiB and more or a duration of 30 minutes and more.
 */
export function classifyKind(input: { siteKind?: ItemKind | null; title: string; sizeBytes?: number | null; duration?: number | null }): ItemKind {
  if (input.siteKind) return input.siteKind;
  const lower = input.title.toLowerCase();
  if (MIX_WORDS.some((w) => lower.includes(w))) return "mix";
  if ((input.sizeBytes ?? 0) >= MIX_MIN_BYTES || (input.duration ?? 0) >= MIX_MIN_SECONDS) return "mix";
  return "single";
}

/** An address on the page made absolute against the page's own address (sites move between both). */
export function absoluteUrl(href: string, base: string): string {
  return new URL(href, base).toString();
}

/** "03:25", "1:02:03" or seconds as text → seconds; null when unreadable. */
export function parseDuration(text: string | number | null | undefined): number | null {
  if (text === null || text === undefined || text === "") return null;
  if (typeof text === "number") return Number.isFinite(text) && text >= 0 ? Math.round(text) : null;
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const parts = trimmed.split(":").map(Number);
  if (parts.length < 2 || parts.length > 3 || parts.some((p) => !Number.isFinite(p) || p < 0)) return null;
  return parts.reduce((total, p) => total * 60 + p, 0);
}
