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
  /** The category and its enabled children: a menu group lists its children's items. */
  scope: number[];
}

const ORDER = {
  new: { key: sql`i.published_at` },
  hot: { key: sql`i.view_count` },
} as const;

/**
 * One index range per category (items_category_latest_idx / _hot_idx), each cut at `n` and
 * merged in order by the caller: `n` entries cost about `n` index entries, not a sort of the
 * whole group (a menu group holds ~1,000,000 items at the largest benchmark).
 */
function branches(scope: readonly number[], order: "new" | "hot", n: number) {
  const { key } = ORDER[order];
  return sql.join(
    scope.map(
      (id) => sql`(select i.id, ${key} as k from items i where i.category_id = ${id} and i.status = 'normal'
                   order by ${key} desc, i.id desc limit ${n})`,
    ),
    sql` union all `,
  );
}

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

    /** One page of the visible items of `scope`, newest or most viewed first, id as the tie-break. */
    page(scope: readonly number[], order: "new" | "hot", limit: number, offset: number) {
      return queryRows<CatalogueItemRow>(
        db,
        sql`with p as (select id, k from (${branches(scope, order, offset + limit)}) u order by k desc, id desc limit ${limit} offset ${offset})
            select ${catalogueItemColumns} from p join items i on i.id = p.id ${catalogueItemJoins}
              order by p.k desc, p.id desc`,
      );
    },

    /** The ids of the first `n` visible items of `scope` in the page order (the same merge). */
    async order(scope: readonly number[], order: "new" | "hot", n: number): Promise<number[]> {
      const rows = await queryRows<{ id: number }>(
        db,
        sql`select id from (${branches(scope, order, n)}) u order by k desc, id desc limit ${n}`,
      );
      return rows.map((r) => r.id);
    },

    /** These items, in this order, the visible ones only. */
    byIds(ids: readonly number[]): Promise<CatalogueItemRow[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return queryRows<CatalogueItemRow>(
        db,
        sql`select ${catalogueItemColumns}
              from json_array_elements_text(${JSON.stringify(ids)}::json) with ordinality as p(id, n)
              join items i on i.id = p.id::int and i.status = 'normal' ${catalogueItemJoins}
             order by p.n`,
      );
    },

    /** Number of visible items of one category (an index-only count of the partial hot index). */
    async count(categoryId: number): Promise<number> {
      const [{ total }] = await queryRows<{ total: number }>(
        db,
        sql`select count(*)::int as total from items i where i.status = 'normal' and i.category_id = ${categoryId}`,
      );
      return total;
    },
  };
}
