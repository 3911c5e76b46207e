import { SITE_DESCRIPTION, SITE_KEYWORDS, SITE_NAME } from "@contracts/site";

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
