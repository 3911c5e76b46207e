import { and, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { AppDatabase } from "../../db/open.js";
import { categories, items } from "../../db/schema/index.js";
import { type RowOf, selectRows } from "../../db/sql.js";
import { type CatalogueItemRow, catalogueItemFields, catalogueItemJoins, ci as i, visibleItem } from "./catalogue-item.js";

const c = alias(categories, "c");
const x = alias(categories, "x");
/** The merged branches as a derived table (`u`: id, k). */
const u = alias(items, "u");

const CATEGORY = {
  id: c.id,
  name: c.name,
  diyname: c.diyname,
  modelId: c.modelId,
  seoTitle: c.seoTitle,
  seoKeywords: c.seoKeywords,
  seoDescription: c.seoDescription,
  /** The category and its enabled children: a menu group lists its children's items. */
  scope: sql<number[]>`array(${sql`select ${x.id} from ${categories} ${x} where ${x.id} = ${c.id} or (${x.parentId} = ${c.id} and ${x.enabled}) order by ${x.id}`})`,
};
export type CategoryRow = RowOf<typeof CATEGORY>;

const ORDER = {
  new: { key: i.publishedAt },
  hot: { key: i.viewCount },
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
      (id) => sql`(select ${i.id}, ${key} as k from ${items} ${i} where ${i.categoryId} = ${id} and ${visibleItem}
                   order by ${key} desc, ${i.id} desc limit ${n})`,
    ),
    sql` union all `,
  );
}

export function categoryRepo(db: AppDatabase) {
  return {
    /** Every enabled category with its scope (itself and its enabled children). */
    allEnabled(): Promise<CategoryRow[]> {
      return db.select(CATEGORY).from(c).where(sql`${c.enabled}`);
    },

    /** One page of the visible items of `scope`, newest or most viewed first, id as the tie-break. */
    page(scope: readonly number[], order: "new" | "hot", limit: number, offset: number): Promise<CatalogueItemRow[]> {
      // Raw: a union of per-category index ranges, merged, then joined (the builder cannot nest the union's limits).
      return selectRows(
        db,
        catalogueItemFields,
        (list) => sql`with p as (select id, k from (${branches(scope, order, offset + limit)}) u order by k desc, id desc limit ${limit} offset ${offset})
            select ${list} from p join ${items} ${i} on ${i.id} = p.id ${catalogueItemJoins}
              order by p.k desc, p.id desc`,
      );
    },

    /** The ids of the first `n` visible items of `scope` in the page order (the same merge). */
    async order(scope: readonly number[], order: "new" | "hot", n: number): Promise<number[]> {
      const rows = await selectRows(
        db,
        { id: u.id },
        (list) => sql`select ${list} from (${branches(scope, order, n)}) ${u} order by k desc, id desc limit ${n}`,
      );
      return rows.map((r) => r.id);
    },

    /** These items, in this order, the visible ones only. */
    byIds(ids: readonly number[]): Promise<CatalogueItemRow[]> {
      if (ids.length === 0) return Promise.resolve([]);
      // Raw: the order comes from a JSON id list with ordinality (a derived table the builder cannot name).
      return selectRows(
        db,
        catalogueItemFields,
        (list) => sql`select ${list}
              from json_array_elements_text(${JSON.stringify(ids)}::json) with ordinality as p(id, n)
              join ${items} ${i} on ${i.id} = p.id::int and ${visibleItem} ${catalogueItemJoins}
             order by p.n`,
      );
    },

    /** Number of visible items of one category (an index-only count of the partial hot index). */
    async count(categoryId: number): Promise<number> {
      const [{ total }] = await db
        .select({ total: sql<number>`count(*)::int` })
        .from(i)
        .where(and(visibleItem, eq(i.categoryId, categoryId)));
      return total;
    },
  };
}
