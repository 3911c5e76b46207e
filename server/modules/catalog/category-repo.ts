import { sql } from "drizzle-orm";
import type { AppDatabase } from "../../db/open.js";
import { queryRows } from "../../db/sql.js";
import { type CatalogueItemRow, catalogueItemColumns, catalogueItemJoins } from "./catalogue-item.js";

export interface CategoryRow {
  id: number;
  name: string;
  diyname: string;
  modelId: number;
  seoTitle: string;
  seoKeywords: string;
  seoDescription: string;
}

export function categoryRepo(db: AppDatabase) {
  return {
    async findEnabled(diyname: string): Promise<CategoryRow | undefined> {
      const [row] = await queryRows<CategoryRow>(
        db,
        sql`select id, name, diyname, model_id as "modelId", seo_title as "seoTitle",
                   seo_keywords as "seoKeywords", seo_description as "seoDescription"
            from categories where diyname = ${diyname} and enabled`,
      );
      return row;
    },

    /**
     * Visible items of the category and its enabled children (a menu group holds none itself),
     * newest or most viewed first, id as the tie-break.
     */
    async page(categoryId: number, order: "new" | "hot", limit: number, offset: number) {
      const orderBy = order === "hot" ? sql`i.view_count desc, i.id desc` : sql`i.published_at desc, i.id desc`;
      const scope = sql`i.status = 'normal' and i.category_id in (
        select id from categories where id = ${categoryId} or (parent_id = ${categoryId} and enabled))`;
      const [rows, [{ total }]] = await Promise.all([
        queryRows<CatalogueItemRow>(
          db,
          sql`select ${catalogueItemColumns} from items i ${catalogueItemJoins}
              where ${scope} order by ${orderBy} limit ${limit} offset ${offset}`,
        ),
        queryRows<{ total: number }>(db, sql`select count(*)::int as total from items i where ${scope}`),
      ]);
      return { rows, total };
    },
  };
}
