import { CATEGORY_PAGE_SIZE, type CategoryPage, categoryMessages, type GetSortQuery } from "@contracts/category";
import type { AppDatabase } from "../../db/open.js";
import { notFound } from "../../errors.js";
import type { ChartsService } from "../charts/service.js";
import { categoryRepo } from "./category-repo.js";
import { toCatalogueItem } from "./catalogue-item.js";

const SLUG = /^[A-Za-z0-9_-]{1,64}$/;

/** The category page's data: one page of its items, SEO texts and the charts sidebar. */
export function categoryService(db: AppDatabase, charts: Pick<ChartsService, "chartSide">) {
  const repo = categoryRepo(db);
  return {
    async page(query: GetSortQuery): Promise<CategoryPage> {
      const diyname = query.diyname.replace(/\.html$/, "");
      const category = SLUG.test(diyname) ? await repo.findEnabled(diyname) : undefined;
      if (!category) throw notFound(categoryMessages.missing);
      const offset = (query.page - 1) * CATEGORY_PAGE_SIZE;
      const [{ rows, total }, side] = await Promise.all([
        repo.page(category.id, query.filter, CATEGORY_PAGE_SIZE, offset),
        charts.chartSide(),
      ]);
      return {
        title: category.seoTitle || category.name,
        keywords: category.seoKeywords,
        description: category.seoDescription,
        categoryname: category.name,
        cidurl: `/sort/${category.diyname}`,
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
