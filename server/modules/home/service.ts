import type { CatalogueItem } from "@contracts/catalogue-item";
import { type CategoryLatest, HOME_LIMITS, type HomeData } from "@contracts/home";
import { BLOCK_URL_PATTERN } from "@contracts/admin-content-texts";
import { categoryPath } from "@contracts/paths";
import type { AppDatabase } from "../../db/open.js";
import { type CacheRegistry, jsonBytes } from "../../lib/cache.js";
import { tags } from "../../lib/cache-tags.js";
import { toCatalogueItem } from "../catalog/catalogue-item.js";
import { chartSideItemIds, type ChartsService } from "../charts/service.js";
import type { SiteSettingsService } from "../site-settings/service.js";
import { type HomeCategoryRow, type LatestItemRow, homeRepo } from "./repo.js";

/**
 * Every visitor sees the same home page: it is built once and shared until a change event
 * touches what it shows, and at most this many ms anyway (charts move with plays, and view
 * counts with views, which publish no event).
 */
export const HOME_CACHE_MS = 30_000;

export interface HomePage {
  title: string;
  keywords: string;
  description: string;
  data: HomeData;
}

const ALL_SITES = { code: "", name: "全部" };

/** Newest first, as the lists' SQL orders them; id breaks ties (published is in whole seconds). */
const newestFirst = (a: CatalogueItem, b: CatalogueItem) => b.time - a.time || Number(b.id) - Number(a.id);

/**
 * Latest lists from each category's newest items: a group's newest `groupLimit` are among its
 * children's newest `groupLimit` each, so one bounded query serves both lists.
 */
export function buildLatestLists(categories: HomeCategoryRow[], rows: LatestItemRow[]): Pick<HomeData, "suitelist" | "suitelistx" | "categories"> {
  const byCategory = new Map<number, CatalogueItem[]>();
  for (const row of rows) {
    const list = byCategory.get(row.list_category_id) ?? [];
    list.push(toCatalogueItem(row));
    byCategory.set(row.list_category_id, list);
  }
  const parentIds = new Set(categories.map((c) => c.parent_id).filter((id) => id !== null));
  const leaves = categories.filter((c) => !parentIds.has(c.id));
  const section = (c: HomeCategoryRow, list: CatalogueItem[]): CategoryLatest => ({
    name: c.name,
    diyname: c.diyname,
    cidurl: categoryPath(c.diyname),
    list,
  });
  const suitelist = categories
    .filter((c) => parentIds.has(c.id))
    .map((group) => {
      const members = categories.filter((c) => c.id === group.id || c.parent_id === group.id);
      const list = members.flatMap((c) => byCategory.get(c.id) ?? []).sort(newestFirst);
      return section(group, list.slice(0, HOME_LIMITS.group));
    });
  return {
    suitelist,
    suitelistx: leaves.map((c) => section(c, (byCategory.get(c.id) ?? []).slice(0, HOME_LIMITS.category))),
    categories: leaves.map((c) => ({ name: c.name, diyname: c.diyname, cidurl: categoryPath(c.diyname) })),
  };
}

/** The ids of the items a home page shows (its lists and charts). */
export function shownItemIds({ data }: HomePage): Set<number> {
  const lists = [data.data, data.favorites, ...data.suitelist.map((s) => s.list), ...data.suitelistx.map((s) => s.list)];
  return new Set([...lists.flat().map((item) => Number(item.id)), ...chartSideItemIds(data.side)]);
}

export function homeService(
  db: AppDatabase,
  {
    charts,
    caches,
    settings,
  }: { charts: Pick<ChartsService, "chartSide">; caches: CacheRegistry; settings: Pick<SiteSettingsService, "get"> },
) {
  const repo = homeRepo(db);
  // Past HOME_CACHE_MS it is rebuilt in the background while the kept page is still served.
  const home = caches.create<HomePage>({
    name: "home",
    maxEntries: 1,
    maxBytes: 4 * 1024 * 1024,
    sizeOf: jsonBytes,
    freshMs: HOME_CACHE_MS,
    staleMs: 10 * 60_000,
    // Lists chosen across the catalogue, the categories, blocks, sites and settings; the counts
    // of the items it shows (the most-favourited list moves with them). Not the sites' own
    // charts: the panel asks getrank for them.
    tagsOf: (page) => [
      tags.items,
      tags.nav,
      tags.blocks,
      tags.sources,
      tags.settings,
      tags.charts,
      ...[...shownItemIds(page)].map(tags.counts),
    ],
  });
  async function build(): Promise<HomePage> {
    const categories = await repo.categories();
    const perCategory = Math.max(HOME_LIMITS.group, HOME_LIMITS.category);
    const [blocks, sites, recommended, favourites, latest, total, side, site] = await Promise.all([
      repo.blockItems(["indexfocus", "indexweb"]),
      repo.sourceSites(),
      repo.recommended(HOME_LIMITS.tab),
      repo.mostFavourited(HOME_LIMITS.tab),
      repo.latestPerCategory(categories.map((c) => c.id), perCategory),
      repo.visibleTotal(),
      charts.chartSide(),
      settings.get(),
    ]);
    // A row saved before the link rule was tightened (a backslash reads as a slash: off the site)
    // is shown as the home page's own link, not followed.
    const block = (position: string) =>
      blocks.filter((b) => b.position === position).map(({ name, url, image }) => ({ name, url: BLOCK_URL_PATTERN.test(url) ? url : "/", image }));
    return {
      // The site settings of the back office (ADR 0030); a save drops this page (event `settings`).
      title: site.title,
      keywords: site.keywords,
      description: site.description,
      data: {
        indexweb: block("indexweb"),
        indexfocus: block("indexfocus"),
        siteweblist: sites.map((s) => ({ code: s.code, name: s.name, logo: s.logo ?? "", homepage: s.homepage })),
        channel: [ALL_SITES, ...sites.map((s) => ({ code: s.code, name: s.name }))],
        data: recommended.map(toCatalogueItem),
        favorites: favourites.map(toCatalogueItem),
        side,
        ...buildLatestLists(categories, latest),
        total,
      },
    };
  }

  return {
    page: (): Promise<HomePage> => home.get("", build),
  };
}

export type HomeService = ReturnType<typeof homeService>;
