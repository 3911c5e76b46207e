/** The site's default SEO texts (spec section 9: default site title DJ搜索引擎网). Schema-free: browser code imports it. */
export const SITE_NAME = "DJ搜索引擎网";
export const SITE_KEYWORDS = "DJ,DJ舞曲,串烧,套曲,慢摇,DJ音乐搜索";
export const SITE_DESCRIPTION = "DJ搜索引擎网：搜索各大DJ站的串烧套曲与单曲，在线试听，DJ舞曲排行榜与最新套曲。";

/** The site settings of the back office (站点设置, issue 12): what every public page uses. */
export interface SiteSettings {
  title: string;
  keywords: string;
  description: string;
  /** Plain text under every public page (line breaks kept). */
  footer: string;
  /** Plain text in the partner-site box of the home page. */
  partnerText: string;
}

/** The footer's own text; the "© {站点标题}" line is added when it is shown (`footerLines`). */
export const SITE_FOOTER = "本站只提供DJ舞曲搜索，不提供下载；下载均在来源站点进行。";

/**
 * The lines under every public page: the footer text, then "© {站点标题}" built from the title
 * (ADR 0066), so renaming the site renames it; a footer that writes its own © line keeps it alone.
 */
export function footerLines(site: Pick<SiteSettings, "footer" | "title">): string[] {
  const lines = site.footer.trim() ? site.footer.split("\n") : [];
  return site.footer.includes("©") ? lines : [...lines, `© ${site.title}`];
}

export const DEFAULT_SITE_SETTINGS: SiteSettings = {
  title: SITE_NAME,
  keywords: SITE_KEYWORDS,
  description: SITE_DESCRIPTION,
  footer: SITE_FOOTER,
  partnerText: "",
};
