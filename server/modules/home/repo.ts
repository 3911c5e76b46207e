import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { AppDatabase } from "../../db/open.js";
import { blockItems, blocks, categories, items, sourceSites } from "../../db/schema/index.js";
import { type RowOf, selectRows } from "../../db/sql.js";
import { type CatalogueItemRow, type CatalogueRowOf, catalogueItemFields, catalogueItemJoins, ci as i, visibleItem } from "../catalog/catalogue-item.js";

const BLOCK_ITEM = { position: blocks.position, name: blockItems.name, url: blockItems.url, image: blockItems.image };
export type HomeBlockRow = RowOf<typeof BLOCK_ITEM>;

const c = alias(categories, "c");
const p = alias(categories, "p");
const CATEGORY = {
  id: c.id,
  name: c.name,
  diyname: c.diyname,
  /** The enabled parent, when there is one. */
  parent_id: sql<number | null>`case when ${p.enabled} then ${c.parentId} end`,
};
export type HomeCategoryRow = RowOf<typeof CATEGORY>;

const LATEST = { ...catalogueItemFields, list_category_id: sql<number>`cat.id` };
export type LatestItemRow = CatalogueRowOf<typeof LATEST>;

/** The home page's queries; each list is bounded, so none grows with the catalogue. */
export function homeRepo(db: AppDatabase) {
  return {
    /** Items of enabled blocks at the given positions, in block then item order. */
    blockItems(positions: string[]): Promise<HomeBlockRow[]> {
      return db
        .select(BLOCK_ITEM)
        .from(blockItems)
        .innerJoin(blocks, eq(blocks.id, blockItems.blockId))
        .where(and(sql`${blocks.status}`, inArray(blocks.position, positions)))
        .orderBy(asc(blocks.sort), asc(blocks.id), asc(blockItems.sort), asc(blockItems.id));
    },

    sourceSites() {
      return db
        .select({ code: sourceSites.code, name: sourceSites.name, logo: sourceSites.logo, homepage: sourceSites.homepage })
        .from(sourceSites)
        .where(sql`${sourceSites.enabled}`)
        .orderBy(asc(sourceSites.sort), asc(sourceSites.code));
    },

    /** Enabled categories in menu order; a parent that is itself disabled counts as none. */
    categories(): Promise<HomeCategoryRow[]> {
      return db
        .select(CATEGORY)
        .from(c)
        .leftJoin(p, eq(p.id, c.parentId))
        .where(sql`${c.enabled}`)
        .orderBy(asc(c.sort), asc(c.id));
    },

    /** Recommended items, newest first (a partial index holds just these). */
    recommended(limit: number): Promise<CatalogueItemRow[]> {
      return selectRows(
        db,
        catalogueItemFields,
        (list) => sql`select ${list} from ${items} ${i} ${catalogueItemJoins}
            where ${visibleItem} and ${i.recommended} order by ${i.publishedAt} desc, ${i.id} desc limit ${limit}`,
      );
    },

    /** Most favourited items; ties go to the newer item. */
    mostFavourited(limit: number): Promise<CatalogueItemRow[]> {
      return selectRows(
        db,
        catalogueItemFields,
        (list) => sql`select ${list} from ${items} ${i} ${catalogueItemJoins}
            where ${visibleItem} and ${i.favoriteCount} > 0 order by ${i.favoriteCount} desc, ${i.id} desc limit ${limit}`,
      );
    },

    /**
     * The newest `limit` items of each given category, each list read backwards from the
     * (category_id, published_at, id) index, so the cost is `limit` rows per category.
     */
    latestPerCategory(categoryIds: number[], limit: number): Promise<LatestItemRow[]> {
      if (categoryIds.length === 0) return Promise.resolve([]);
      // Raw: a lateral join per category id (the builder cannot select from unnest()).
      return selectRows(
        db,
        LATEST,
        (list) => sql`select x.* from unnest(${`{${categoryIds.map(Number).join(",")}}`}::int[]) as cat(id)
            cross join lateral (
              select ${list}
              from ${items} ${i} ${catalogueItemJoins}
              where ${i.categoryId} = cat.id and ${visibleItem}
              order by ${i.publishedAt} desc, ${i.id} desc limit ${limit}
            ) x`,
      );
    },

    async visibleTotal(): Promise<number> {
      const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(i).where(visibleItem);
      return total;
    },
  };
}

export type HomeRepo = ReturnType<typeof homeRepo>;
