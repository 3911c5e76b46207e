import { CATEGORY_PAGE_SIZE, type CategoryPage, categoryMessages, type GetSortQuery } from "@contracts/category";
import { categoryPath } from "@contracts/paths";
import type { AppDatabase } from "../../db/open.js";
import { notFound } from "../../errors.js";
import type { ChartsService } from "../charts/service.js";
import type { EventBus } from "../../events/bus.js";
import type { CacheRegistry } from "../../lib/cache.js";
import type { SiteSettingsService } from "../site-settings/service.js";
import { type CategoryRow, categoryRepo } from "./category-repo.js";
import { toCatalogueItem } from "./catalogue-item.js";

const SLUG = /^[A-Za-z0-9_-]{1,64}$/;

/** Spec section 2: a trailing .html of a category slug is stripped. */
export const bareDiyname = (diyname: string) => diyname.replace(/\.html$/, "");
/**
 * A category's item count is kept until an item of its scope changes (a change event drops
 * it): counting a menu group (~100000 items at the benchmark's size) on every page view cost
 * more than the page itself. Read again after this long anyway (edits outside the write service).
 */
export const CATEGORY_COUNT_CACHE_MS = 60_000;
/**
 * The categories themselves (a few dozen rows) are kept until one changes, and read again after
 * this long anyway: a page then costs one query.
 */
export const CATEGORIES_CACHE_MS = 30_000;

/** The category page's data: one page of its items, SEO texts and the charts sidebar. */
export function categoryService(
  db: AppDatabase,
  {
    charts,
    caches,
    bus,
    settings,
  }: { charts: Pick<ChartsService, "chartSide">; caches: CacheRegistry; bus: EventBus; settings?: Pick<SiteSettingsService, "get"> },
) {
  const repo = categoryRepo(db);
  const enabled = caches.create<Map<string, CategoryRow>>({ name: "categories", maxEntries: 1, freshMs: CATEGORIES_CACHE_MS });
  const byDiyname = () => enabled.get("", async () => new Map((await repo.allEnabled()).map((c) => [c.diyname, c])));
  const counts = caches.create<number>({ name: "category-counts", maxEntries: 1_000, freshMs: CATEGORY_COUNT_CACHE_MS });
  const countOf = (scope: readonly number[]) => counts.get(scope.join(","), () => repo.count(scope));

  bus.subscribe((event) => {
    if (event.type === "categories") {
      enabled.clear();
      counts.clear();
    } else if (event.type === "items") {
      const changed = new Set(event.categoryIds);
      counts.deleteWhere((key) => key.split(",").some((id) => changed.has(Number(id))));
    }
  });

  return {
    /**
     * The slugs of the enabled categories whose pages list items of these categories (the
     * category itself and its menu group); null when the categories are not loaded.
     */
    diynamesCovering(categoryIds: readonly number[]): string[] | null {
      const all = enabled.peek("");
      if (!all) return null;
      return [...all.values()].filter((c) => c.scope.some((id) => categoryIds.includes(id))).map((c) => c.diyname);
    },

    async page(query: GetSortQuery): Promise<CategoryPage> {
      const diyname = bareDiyname(query.diyname);
      const category = SLUG.test(diyname) ? (await byDiyname()).get(diyname) : undefined;
      if (!category) throw notFound(categoryMessages.missing);
      const offset = (query.page - 1) * CATEGORY_PAGE_SIZE;
      const [rows, total, side, site] = await Promise.all([
        repo.page(category.scope, query.filter, CATEGORY_PAGE_SIZE, offset),
        countOf(category.scope),
        charts.chartSide(),
        settings?.get(),
      ]);
      // A category without its own SEO texts takes the site's (站点设置, ADR 0030).
      return {
        title: category.seoTitle || (site ? `${category.name} - ${site.title}` : category.name),
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
