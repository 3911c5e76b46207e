import { DEFAULT_SITE_SETTINGS, type SiteSettings } from "@contracts/site";

/** Height of the fixed global player bar; page content keeps this much bottom padding. */
export const PLAYER_HEIGHT = 64;
export const HEADER_HEIGHT = 64;

/**
 * Page `<title>` and description tags: "页面 - 站点标题", or the bare site title. The title,
 * keywords and default description are the back office's site settings (`siteOf(matches)` in
 * a public route's meta); without them, the built-in defaults.
 */
export function pageMeta(title?: string, description?: string, site: SiteSettings = DEFAULT_SITE_SETTINGS) {
  return [
    { title: title ? `${title} - ${site.title}` : site.title },
    { name: "keywords", content: site.keywords },
    { name: "description", content: description ?? site.description },
  ];
}
