import { HOME_NAV_ITEM, type NavItem } from "@contracts/navigation";
import { categoryPath } from "@contracts/paths";
import type { AppDatabase } from "../../db/open.js";
import { type CacheRegistry, jsonBytes } from "../../lib/cache.js";
import { tags } from "../../lib/cache-tags.js";
import { type NavCategoryRow, navigationRepo } from "./navigation-repo.js";

/**
 * The navigation is kept until a category changes (a change event drops it); it is read again
 * after this long anyway, for edits made outside the write service (e.g. by hand in SQL).
 */
export const NAV_CACHE_MS = 60_000;

/** 首页, then each top-level category with its enabled children as a submenu. */
export function buildTopNav(rows: readonly NavCategoryRow[]): NavItem[] {
  const enabledIds = new Set(rows.map((r) => r.id));
  const children = new Map<number, NavItem[]>();
  const tops: NavCategoryRow[] = [];
  for (const row of rows) {
    // A child whose parent is disabled or gone is promoted to the top level.
    if (row.parentId !== null && enabledIds.has(row.parentId)) {
      const list = children.get(row.parentId) ?? [];
      list.push(toItem(row));
      children.set(row.parentId, list);
    } else {
      tops.push(row);
    }
  }
  return [
    HOME_NAV_ITEM,
    ...tops.map((row) => {
      const items = children.get(row.id);
      return items ? { ...toItem(row), items } : toItem(row);
    }),
  ];
}

function toItem(row: NavCategoryRow): NavItem {
  return row.icon ? { label: row.name, to: categoryPath(row.diyname), icon: row.icon } : { label: row.name, to: categoryPath(row.diyname) };
}

export function navigationService(db: AppDatabase, { caches }: { caches: CacheRegistry }) {
  const repo = navigationRepo(db);
  const nav = caches.create<NavItem[]>({ name: "navigation", maxEntries: 1, maxBytes: 256 * 1024, sizeOf: jsonBytes, freshMs: NAV_CACHE_MS, tagsOf: () => [tags.nav] });
  return {
    topNav: (): Promise<NavItem[]> => nav.get("", () => repo.listEnabledCategories().then(buildTopNav)),
  };
}

export type NavigationService = ReturnType<typeof navigationService>;
