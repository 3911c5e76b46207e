/** The site's default SEO texts (spec section 9: default site title DJ搜索引擎网). Schema-free: browser code imports it. */
export const SITE_NAME = "DJ搜索引擎网";
export const SITE_KEYWORDS = "DJ,DJ舞曲,串烧,套曲,慢摇,DJ音乐搜索";
export const SITE_DESCRIPTION = "DJ搜索引擎网：搜索各大DJ站的串烧套曲与单曲，在线试听，DJ舞曲排行榜与最新套曲。";
