import { CATEGORY_PAGE_MAX, CATEGORY_PAGE_SIZE, type CategoryPage, categoryMessages, type GetSortQuery } from "@contracts/category";
import { categoryPath } from "@contracts/paths";
import type { AppDatabase } from "../../db/open.js";
import { notFound } from "../../errors.js";
import type { ChartsService } from "../charts/service.js";
import { type CacheRegistry, jsonBytes, tagWith } from "../../lib/cache.js";
import { tags } from "../../lib/cache-tags.js";
import type { SiteSettingsService } from "../site-settings/service.js";
import { type CategoryRow, categoryRepo } from "./category-repo.js";
import { toCatalogueItem } from "./catalogue-item.js";

const SLUG = /^[A-Za-z0-9_-]{1,64}$/;

/** Spec section 2: a trailing .html of a category slug is stripped. */
export const bareDiyname = (diyname: string) => diyname.replace(/\.html$/, "");
/**
 * Each category's own item count is kept until one of its items changes (a change event drops
 * it), and a menu group's is the sum of its members': counting a group at 1,000,000 suites
 * took ~0.4 s, one category ~30 ms, and an edit now costs a recount of its category only.
 * Read again after this long anyway (edits outside the write service), in the background
 * while the kept count is still served (up to CATEGORY_COUNT_STALE_MS).
 */
export const CATEGORY_COUNT_CACHE_MS = 60_000;
const CATEGORY_COUNT_STALE_MS = 10 * 60_000;
/**
 * Past page 10 a category's page is a slice of its kept order: the ids of its first 1,000 items
 * (pages up to 100), or of every reachable page (10,000). Page 1000 of a group read 10,000 index
 * entries (~5 ms, 15 at load 10) on each first ask; the order costs that once, and a page then
 * reads its 10 rows. Orders are dropped like the counts, and (views move the hot order) read
 * again in the background after a minute.
 */
const ORDER_FROM_PAGE = 10;
const ORDER_FRESH_MS = 60_000;
const ORDER_LENGTHS = [100 * CATEGORY_PAGE_SIZE, CATEGORY_PAGE_MAX * CATEGORY_PAGE_SIZE];
/**
 * The categories themselves (a few dozen rows) are kept until one changes, and read again after
 * this long anyway: a page then costs one query.
 */
export const CATEGORIES_CACHE_MS = 30_000;

/** "{SEO title or name} - {site title}": the stored SEO title holds only the category's own part. */
export function categoryTitle(category: { name: string; seoTitle: string }, siteTitle: string | undefined): string {
  const own = category.seoTitle.trim() || category.name;
  return siteTitle ? `${own} - ${siteTitle}` : own;
}

/** The category page's data: one page of its items, SEO texts and the charts sidebar. */
export function categoryService(
  db: AppDatabase,
  {
    charts,
    caches,
    settings,
  }: { charts: Pick<ChartsService, "chartSide">; caches: CacheRegistry; settings?: Pick<SiteSettingsService, "get"> },
) {
  const repo = categoryRepo(db);
  const enabled = caches.create<Map<string, CategoryRow>>({ name: "categories", maxEntries: 1, maxBytes: 1024 * 1024, sizeOf: jsonBytes, freshMs: CATEGORIES_CACHE_MS, tagsOf: () => [tags.nav] });
  const byDiyname = () =>
    enabled.get("", async () => {
      const rows = await repo.allEnabled();
      // Every category's count starts loading in the background (~30 ms each at 1,000,000
      // suites), so the first view of each category does not count it on its way.
      for (const id of new Set(rows.flatMap((c) => c.scope))) void countOne(id).catch(() => undefined);
      return new Map(rows.map((c) => [c.diyname, c]));
    });
  const counts = caches.create<number>({
    name: "category-counts",
    maxEntries: 1_000,
    maxBytes: 256 * 1024,
    sizeOf: () => 8,
    freshMs: CATEGORY_COUNT_CACHE_MS,
    staleMs: CATEGORY_COUNT_STALE_MS,
    tagsOf: (_count, id) => [tags.category(Number(id)), tags.nav],
  });
  const orders = caches.create<number[]>({
    name: "category-orders",
    maxEntries: 200,
    maxBytes: 32 * 1024 * 1024,
    sizeOf: (ids) => ids.length * 8,
    freshMs: ORDER_FRESH_MS,
    staleMs: CATEGORY_COUNT_STALE_MS,
    // Key: order|length|scope ids.
    tagsOf: (_ids, key) => [...key.split("|")[2].split(",").map((id) => tags.category(Number(id))), tags.nav],
  });
  /** Items [offset, offset + page size) of the order, from the shortest kept order that holds them. */
  const slice = async (scope: readonly number[], order: "new" | "hot", offset: number) => {
    const end = offset + CATEGORY_PAGE_SIZE;
    const length = ORDER_LENGTHS.find((n) => n >= end) ?? ORDER_LENGTHS.at(-1)!;
    const ids = await orders.get(`${order}|${length}|${scope.join(",")}`, () => repo.order(scope, order, length));
    return repo.byIds(ids.slice(offset, end));
  };
  const countOne = (id: number) => counts.get(String(id), () => repo.count(id));
  const countOf = async (scope: readonly number[]) => (await Promise.all(scope.map(countOne))).reduce((a, b) => a + b, 0);

  return {
    /**
     * Every enabled category's slug and how many pages it has (at least its first, even empty;
     * counts as kept): what the background pre-render asks for (ADR 0038).
     */
    async listed(): Promise<{ diyname: string; pages: number }[]> {
      const all = [...(await byDiyname()).values()];
      const totals = await Promise.all(all.map((c) => countOf(c.scope)));
      return all.map((c, i) => ({
        diyname: c.diyname,
        pages: Math.min(CATEGORY_PAGE_MAX, Math.max(1, Math.ceil(totals[i]! / CATEGORY_PAGE_SIZE))),
      }));
    },

    /** Whether a category page exists for the slug (a trailing .html stripped), as `page` decides. */
    async has(diyname: string): Promise<boolean> {
      const bare = bareDiyname(diyname);
      return SLUG.test(bare) && (await byDiyname()).has(bare);
    },

    async page(query: GetSortQuery): Promise<CategoryPage> {
      const diyname = bareDiyname(query.diyname);
      const category = SLUG.test(diyname) ? (await byDiyname()).get(diyname) : undefined;
      if (!category) throw notFound(categoryMessages.missing);
      // The page lists its scope's visible items, of the sources in use: any item write in one
      // of them drops it. (Its other tags come with what it reads: the categories, their counts,
      // the charts beside it, the settings.)
      tagWith(...category.scope.map(tags.category), tags.sources);
      const offset = (query.page - 1) * CATEGORY_PAGE_SIZE;
      const [rows, total, side, site] = await Promise.all([
        query.page > ORDER_FROM_PAGE
          ? slice(category.scope, query.filter, offset)
          : repo.page(category.scope, query.filter, CATEGORY_PAGE_SIZE, offset),
        countOf(category.scope),
        charts.chartSide(),
        settings?.get(),
      ]);
      // A category without its own SEO texts takes the site's (站点设置, ADR 0030); its title
      // always ends with the site's, appended here and never stored (ADR 0066).
      return {
        title: categoryTitle(category, site?.title),
        keywords: category.seoKeywords || (site?.keywords ?? ""),
        description: category.seoDescription || (site?.description ?? ""),
        categoryname: category.name,
        cidurl: categoryPath(category.diyname),
        model_id: category.modelId,
        list: rows.map(toCatalogueItem),
        total,
        page: query.page,
        pageSize: CATEGORY_PAGE_SIZE,
        side,
      };
    },
  };
}
export type CategoryService = ReturnType<typeof categoryService>;
