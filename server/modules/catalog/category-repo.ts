import { sql, type SQL } from "drizzle-orm";
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
  /** The category and its enabled children: a menu group lists its children's items. */
  scope: number[];
}

const ORDER = {
  new: { key: sql`i.published_at`, label: "published_at" },
  hot: { key: sql`i.view_count`, label: "view_count" },
} as const;

export function categoryRepo(db: AppDatabase) {
  return {
    /** Every enabled category with its scope (itself and its enabled children). */
    allEnabled(): Promise<CategoryRow[]> {
      return queryRows<CategoryRow>(
        db,
        sql`select id, name, diyname, model_id as "modelId", seo_title as "seoTitle",
                   seo_keywords as "seoKeywords", seo_description as "seoDescription",
                   array(select x.id from categories x where x.id = c.id or (x.parent_id = c.id and x.enabled)
                         order by x.id) as scope
            from categories c where enabled`,
      );
    },

    /**
     * One page of the visible items of `scope`, newest or most viewed first, id as the
     * tie-break. One index range per category (items_category_latest_idx / _hot_idx), each cut
     * at offset + limit and merged in order: a page costs about offset + limit index entries, not
     * a sort of the whole group (a menu group holds ~100000 items at the benchmark's size).
     */
    page(scope: readonly number[], order: "new" | "hot", limit: number, offset: number) {
      const { key } = ORDER[order];
      const branches = sql.join(
        scope.map(
          (id) => sql`(select i.id, ${key} as k from items i where i.category_id = ${id} and i.status = 'normal'
                       order by ${key} desc, i.id desc limit ${offset + limit})`,
        ),
        sql` union all `,
      );
      return queryRows<CatalogueItemRow>(
        db,
        sql`with p as (select id, k from (${branches}) u order by k desc, id desc limit ${limit} offset ${offset})
            select ${catalogueItemColumns} from p join items i on i.id = p.id ${catalogueItemJoins}
              order by p.k desc, p.id desc`,
      );
    },

    /** Number of visible items of `scope` (answered from the partial hot index, no heap visits when vacuumed). */
    async count(scope: readonly number[]): Promise<number> {
      const ids: SQL = sql`(select json_array_elements_text(${JSON.stringify(scope)}::json)::int)`;
      const [{ total }] = await queryRows<{ total: number }>(
        db,
        sql`select count(*)::int as total from items i where i.status = 'normal' and i.category_id in ${ids}`,
      );
      return total;
    },
  };
}
