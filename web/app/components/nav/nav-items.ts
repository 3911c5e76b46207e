import type { NavItem } from "@contracts/navigation";

export type { NavItem };

/** The menu key to highlight: the item (or sub-item) whose address opens the current page. */
export function activeNavKey(items: readonly NavItem[], pathname: string): string | undefined {
  for (const item of items) {
    const sub = item.items && activeNavKey(item.items, pathname);
    if (sub) return sub;
    if (item.to === pathname) return item.to;
  }
  return undefined;
}
