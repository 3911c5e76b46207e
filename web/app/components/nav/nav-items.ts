/** Navigation item of spec section 3; `GET /api/forntend/gettopnav` answers a list of these. */
export interface NavItem {
  label: string;
  to: string;
  icon?: string;
  items?: NavItem[];
}

/**
 * Placeholder menu until the public-site issue feeds the bar from gettopnav
 * (category names as on djuu, see SOURCES.md).
 */
export const PLACEHOLDER_NAV: NavItem[] = [
  { label: "首页", to: "/" },
  {
    label: "串烧舞曲",
    to: "/sort/chuanshao",
    items: [
      { label: "慢摇串烧", to: "/sort/manyao" },
      { label: "迪高串烧", to: "/sort/digao" },
      { label: "中文串烧", to: "/sort/zhongwen" },
      { label: "外语串烧", to: "/sort/waiyu" },
      { label: "喊麦串烧", to: "/sort/hanmai" },
    ],
  },
  {
    label: "DJ单曲",
    to: "/sort/danqu",
    items: [
      { label: "中文Remix", to: "/sort/remix" },
      { label: "外文DISCO", to: "/sort/disco" },
      { label: "FunkyHouse", to: "/sort/funkyhouse" },
      { label: "E.D.M", to: "/sort/edm" },
      { label: "Club", to: "/sort/club" },
    ],
  },
  {
    label: "慢歌",
    to: "/sort/mange",
    items: [
      { label: "中文慢歌", to: "/sort/zhongwenmange" },
      { label: "外语慢歌", to: "/sort/waiyumange" },
    ],
  },
];

/** The menu key to highlight: the item (or sub-item) whose address opens the current page. */
export function activeNavKey(items: readonly NavItem[], pathname: string): string | undefined {
  for (const item of items) {
    const sub = item.items && activeNavKey(item.items, pathname);
    if (sub) return sub;
    if (item.to === pathname) return item.to;
  }
  return undefined;
}
