import type { CatalogueItem } from "@contracts/catalogue-item";
import { type CategoryLatest, HOME_LIMITS, type HomeData } from "@contracts/home";
import { SITE_DESCRIPTION, SITE_KEYWORDS, SITE_NAME } from "@contracts/site";
import { categoryPath } from "@contracts/paths";
import type { AppDatabase } from "../../db/open.js";
import { ttlCache } from "../../lib/ttl-cache.js";
import { toCatalogueItem } from "../catalog/catalogue-item.js";
import type { ChartsService } from "../charts/service.js";
import { type HomeCategoryRow, type LatestItemRow, homeRepo } from "./repo.js";

/**
 * Every visitor sees the same home page and it changes slowly (new items, a chart rebuild),
 * so it is built at most once per this many ms and shared; the back office can invalidate it.
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

export function homeService(db: AppDatabase, charts: Pick<ChartsService, "chartSide">, now: () => number = Date.now) {
  const repo = homeRepo(db);

  async function build(): Promise<HomePage> {
    const categories = await repo.categories();
    const perCategory = Math.max(HOME_LIMITS.group, HOME_LIMITS.category);
    const [blocks, sites, recommended, favourites, latest, total, side] = await Promise.all([
      repo.blockItems(["indexfocus", "indexweb"]),
      repo.sourceSites(),
      repo.recommended(HOME_LIMITS.tab),
      repo.mostFavourited(HOME_LIMITS.tab),
      repo.latestPerCategory(categories.map((c) => c.id), perCategory),
      repo.visibleTotal(),
      charts.chartSide(),
    ]);
    const block = (position: string) => blocks.filter((b) => b.position === position).map(({ name, url, image }) => ({ name, url, image }));
    return {
      title: SITE_NAME,
      keywords: SITE_KEYWORDS,
      description: SITE_DESCRIPTION,
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

  const page = ttlCache(build, HOME_CACHE_MS, now);
  return {
    page: (): Promise<HomePage> => page.get(),
    /** Called by the back office after editing blocks, categories or items. */
    invalidate: () => page.invalidate(),
  };
}

export type HomeService = ReturnType<typeof homeService>;
