import { CATEGORY_PAGE_SIZE, type CategoryPage, categoryMessages, type GetSortQuery } from "@contracts/category";
import { categoryPath } from "@contracts/paths";
import type { AppDatabase } from "../../db/open.js";
import { notFound } from "../../errors.js";
import type { ChartsService } from "../charts/service.js";
import { ttlCache } from "../../lib/ttl-cache.js";
import { categoryRepo } from "./category-repo.js";
import { toCatalogueItem } from "./catalogue-item.js";

const SLUG = /^[A-Za-z0-9_-]{1,64}$/;

/** Spec section 2: a trailing .html of a category slug is stripped. */
export const bareDiyname = (diyname: string) => diyname.replace(/\.html$/, "");
/**
 * A category's item count is reused this long: counting a menu group (~100000 items at the
 * benchmark's size) on every page view cost more than the page itself; the pager may lag a
 * newly added or hidden item by this much.
 */
export const CATEGORY_COUNT_CACHE_MS = 60_000;
/**
 * The categories themselves (a few dozen rows, edited only in the back office, which calls
 * `invalidate()`) are reused this long, as the home page's data is: a page then costs one query.
 */
export const CATEGORIES_CACHE_MS = 30_000;

/** The category page's data: one page of its items, SEO texts and the charts sidebar. */
export function categoryService(db: AppDatabase, charts: Pick<ChartsService, "chartSide">) {
  const repo = categoryRepo(db);
  const byDiyname = ttlCache(
    async () => new Map((await repo.allEnabled()).map((c) => [c.diyname, c])),
    CATEGORIES_CACHE_MS,
  );
  const counts = new Map<string, { at: number; total: Promise<number> }>();
  const countOf = (scope: readonly number[]): Promise<number> => {
    const key = scope.join(",");
    const hit = counts.get(key);
    if (hit && Date.now() - hit.at < CATEGORY_COUNT_CACHE_MS) return hit.total;
    const total = repo.count(scope);
    counts.set(key, { at: Date.now(), total });
    total.catch(() => counts.delete(key));
    return total;
  };
  return {
    async page(query: GetSortQuery): Promise<CategoryPage> {
      const diyname = bareDiyname(query.diyname);
      const category = SLUG.test(diyname) ? (await byDiyname.get()).get(diyname) : undefined;
      if (!category) throw notFound(categoryMessages.missing);
      const offset = (query.page - 1) * CATEGORY_PAGE_SIZE;
      const [rows, total, side] = await Promise.all([
        repo.page(category.scope, query.filter, CATEGORY_PAGE_SIZE, offset),
        countOf(category.scope),
        charts.chartSide(),
      ]);
      return {
        title: category.seoTitle || category.name,
        keywords: category.seoKeywords,
        description: category.seoDescription,
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

    /** Forget cached categories and counts (the back office calls this after an edit). */
    invalidate(): void {
      byDiyname.invalidate();
      counts.clear();
    },
  };
}
export type CategoryService = ReturnType<typeof categoryService>;
