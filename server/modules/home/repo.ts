import { sql } from "drizzle-orm";
import type { AppDatabase } from "../../db/open.js";
import { queryRows } from "../../db/sql.js";
import { type CatalogueItemRow, catalogueItemColumns, catalogueItemJoins } from "../catalog/catalogue-item.js";

export interface HomeBlockRow {
  position: string;
  name: string;
  url: string;
  image: string;
}

export interface HomeCategoryRow {
  id: number;
  name: string;
  diyname: string;
  /** The enabled parent, when there is one. */
  parent_id: number | null;
}

export type LatestItemRow = CatalogueItemRow & { list_category_id: number };

const visible = sql`i.status = 'normal'`;

/** The home page's queries; each list is bounded, so none grows with the catalogue. */
export function homeRepo(db: AppDatabase) {
  return {
    /** Items of enabled blocks at the given positions, in block then item order. */
    blockItems(positions: string[]): Promise<HomeBlockRow[]> {
      return queryRows<HomeBlockRow>(
        db,
        sql`select b.position, bi.name, bi.url, bi.image
            from block_items bi join blocks b on b.id = bi.block_id
            where b.status and b.position in (${sql.join(positions.map((p) => sql`${p}`), sql`, `)})
            order by b.sort, b.id, bi.sort, bi.id`,
      );
    },

    sourceSites() {
      return queryRows<{ code: string; name: string; logo: string | null; homepage: string }>(
        db,
        sql`select code, name, logo, homepage from source_sites where enabled order by sort, code`,
      );
    },

    /** Enabled categories in menu order; a parent that is itself disabled counts as none. */
    categories(): Promise<HomeCategoryRow[]> {
      return queryRows<HomeCategoryRow>(
        db,
        sql`select c.id, c.name, c.diyname, case when p.enabled then c.parent_id end as parent_id
            from categories c left join categories p on p.id = c.parent_id
            where c.enabled order by c.sort, c.id`,
      );
    },

    /** Recommended items, newest first (a partial index holds just these). */
    recommended(limit: number): Promise<CatalogueItemRow[]> {
      return queryRows<CatalogueItemRow>(
        db,
        sql`select ${catalogueItemColumns} from items i ${catalogueItemJoins}
            where ${visible} and i.recommended order by i.published_at desc, i.id desc limit ${limit}`,
      );
    },

    /** Most favourited items; ties go to the newer item. */
    mostFavourited(limit: number): Promise<CatalogueItemRow[]> {
      return queryRows<CatalogueItemRow>(
        db,
        sql`select ${catalogueItemColumns} from items i ${catalogueItemJoins}
            where ${visible} and i.favorite_count > 0 order by i.favorite_count desc, i.id desc limit ${limit}`,
      );
    },

    /**
     * The newest `limit` items of each given category, each list read backwards from the
     * (category_id, published_at, id) index, so the cost is `limit` rows per category.
     */
    latestPerCategory(categoryIds: number[], limit: number): Promise<LatestItemRow[]> {
      if (categoryIds.length === 0) return Promise.resolve([]);
      return queryRows<LatestItemRow>(
        db,
        sql`select x.* from unnest(${sql.raw(`ARRAY[${categoryIds.map(Number).join(",")}]::int[]`)}) as cat(id)
            cross join lateral (
              select ${catalogueItemColumns}, cat.id as list_category_id
              from items i ${catalogueItemJoins}
              where i.category_id = cat.id and ${visible}
              order by i.published_at desc, i.id desc limit ${limit}
            ) x`,
      );
    },

    async visibleTotal(): Promise<number> {
      const [{ total }] = await queryRows<{ total: number }>(db, sql`select count(*)::int as total from items i where ${visible}`);
      return total;
    },
  };
}

export type HomeRepo = ReturnType<typeof homeRepo>;
