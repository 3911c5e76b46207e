/** Default site title (spec section 9). */
export const SITE_NAME = "DJ搜索引擎网";
export const SITE_KEYWORDS = "DJ,DJ舞曲,串烧,套曲,慢摇,DJ音乐搜索";
export const SITE_DESCRIPTION =
  "DJ搜索引擎网：搜索各大DJ站的串烧套曲与单曲，在线试听，DJ舞曲排行榜与最新套曲。";

/** Height of the fixed global player bar; page content keeps this much bottom padding. */
export const PLAYER_HEIGHT = 64;
export const HEADER_HEIGHT = 64;

/** Page `<title>` and description tags: "页面 - DJ搜索引擎网", or the bare site name. */
export function pageMeta(title?: string, description = SITE_DESCRIPTION) {
  return [
    { title: title ? `${title} - ${SITE_NAME}` : SITE_NAME },
    { name: "keywords", content: SITE_KEYWORDS },
    { name: "description", content: description },
  ];
}
