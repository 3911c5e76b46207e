import { and, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { bulkInsert } from "../../db/bulk.js";
import { blockItems, blocks, categories, items, sourceSites } from "../../db/schema/index.js";
import { type RowOf, selectRows } from "../../db/sql.js";
import type { AppDatabase } from "../../db/types.js";
import type {
  BlockItemPatch,
  BlockPatch,
  CategoryPatch,
  ItemCountDelta,
  NewBlock,
  NewBlockItem,
  NewCategory,
  NewSourceSite,
  SourceSitePatch,
} from "./types.js";

/** A database or an open transaction: the write service runs every write inside one. */
export type Executor = Pick<AppDatabase, "insert" | "update" | "delete" | "select" | "execute">;

type ItemRow = typeof items.$inferInsert;

/** Where an item stood before a write: what the change event must name. */
export type ItemPlace = RowOf<typeof PLACE>;

const COUNT_COLUMNS: Record<keyof ItemCountDelta, AnyPgColumn> = {
  likes: items.likeCount,
  favorites: items.favoriteCount,
  downloads: items.downloadCount,
  comments: items.commentCount,
};
/** The item's place as selected (`lockItems`). */
const PLACE = { id: items.id, categoryId: items.categoryId, sourceSite: items.sourceSite, title: items.title, artist: items.artist, djlist: items.djlist };

/**
 * The only SQL in the project that writes items, categories, blocks, block items and source
 * sites (a test in this folder checks the source tree for writes elsewhere).
 */
export function catalogueWriteRepo(db: Executor) {
  return {
    /** Inserts rows (computed columns included); returns the ids of the rows inserted. */
    async insertItems(rows: ItemRow[], onConflictDoNothing = false): Promise<ItemPlace[]> {
      return bulkInsert(db, items, rows, { onConflictDoNothing, returning: PLACE });
    },

    /** The items' current places, locked until the transaction ends. */
    async lockItems(ids: readonly number[]): Promise<ItemPlace[]> {
      if (ids.length === 0) return [];
      // The ids travel as one JSON parameter (any number of them).
      return db
        .select(PLACE)
        .from(items)
        .where(sql`${items.id} in (select value::int from json_array_elements_text(${JSON.stringify(ids)}::json))`)
        .orderBy(items.id)
        .for("update");
    },

    async updateItem(id: number, patch: Partial<ItemRow>): Promise<void> {
      await db.update(items).set({ ...patch, updatedAt: new Date() }).where(eq(items.id, id));
    },

    async updateItems(ids: readonly number[], patch: Partial<ItemRow>): Promise<void> {
      await db.update(items).set({ ...patch, updatedAt: new Date() }).where(inArray(items.id, [...ids]));
    },

    /** Into the recycle bin: hidden, its status kept to restore; answers the ids that were not there yet. */
    async trashItems(ids: readonly number[]): Promise<number[]> {
      const rows = await db
        .update(items)
        .set({ deletedStatus: sql`${items.status}`, status: "hidden", deletedAt: new Date(), updatedAt: new Date() })
        .where(and(inArray(items.id, [...ids]), isNull(items.deletedAt)))
        .returning({ id: items.id });
      return rows.map((r) => r.id);
    },

    /** Out of the recycle bin with the status it had; answers the ids that were in it. */
    async restoreItems(ids: readonly number[]): Promise<number[]> {
      const rows = await db
        .update(items)
        .set({ status: sql`coalesce(${items.deletedStatus}, 'hidden')`, deletedStatus: null, deletedAt: null, updatedAt: new Date() })
        .where(and(inArray(items.id, [...ids]), isNotNull(items.deletedAt)))
        .returning({ id: items.id });
      return rows.map((r) => r.id);
    },

    async deleteItems(ids: readonly number[]): Promise<void> {
      await db.delete(items).where(inArray(items.id, [...ids]));
    },

    /** Adds to an item's counters (never below 0); false when the item does not exist. */
    async addToCounts(id: number, delta: ItemCountDelta): Promise<boolean> {
      const sets = Object.entries(delta)
        .filter(([, n]) => n)
        .map(([k, n]) => {
          const column = sql.identifier(COUNT_COLUMNS[k as keyof ItemCountDelta].name);
          return sql`${column} = greatest(0, ${column} + ${n as number})`;
        });
      if (sets.length === 0) return true;
      // Raw: the builder's update would also set updated_at (its $onUpdate); a counter is no edit.
      const rows = await selectRows(db, { id: items.id }, (fields) => sql`update ${items} set ${sql.join(sets, sql`, `)} where ${items.id} = ${id} returning ${fields}`);
      return rows.length > 0;
    },

    /**
     * Moves up to `limit` items' waiting views (item_view_deltas) into items.view_count, in one
     * statement so a reader of both never sees a view twice or not at all. Returns how many
     * items it moved; rows another instance is folding are skipped.
     */
    async foldViewDeltas(limit: number): Promise<number> {
      // Raw: a data-modifying CTE with `for update skip locked`, which the builder cannot write.
      const [{ n }] = await selectRows(db, { n: sql<number>`count(*)::int` }, (fields) =>
        sql`with d as (
              delete from item_view_deltas
               where item_id in (select item_id from item_view_deltas limit ${limit} for update skip locked)
              returning item_id, views
            ), folded as (
              update items i set view_count = i.view_count + d.views from d where i.id = d.item_id returning 1
            )
            select ${fields} from d`,
      );
      return n;
    },

    async insertCategories(rows: NewCategory[], onConflictDoNothing = false) {
      if (rows.length === 0) return [];
      const query = db.insert(categories).values(rows);
      return (onConflictDoNothing ? query.onConflictDoNothing() : query).returning({ id: categories.id, diyname: categories.diyname });
    },
    async updateCategory(id: number, patch: CategoryPatch): Promise<boolean> {
      const rows = await db.update(categories).set({ ...patch, updatedAt: new Date() }).where(eq(categories.id, id)).returning({ id: categories.id });
      return rows.length > 0;
    },
    async deleteCategory(id: number): Promise<boolean> {
      return (await db.delete(categories).where(eq(categories.id, id)).returning({ id: categories.id })).length > 0;
    },
    /** Items of a category (its children's items stay with the children). */
    async itemIdsInCategory(id: number): Promise<number[]> {
      return (await db.select({ id: items.id }).from(items).where(eq(items.categoryId, id))).map((r) => r.id);
    },

    async insertBlock(row: NewBlock): Promise<number> {
      const [created] = await db.insert(blocks).values(row).returning({ id: blocks.id });
      return created.id;
    },
    async updateBlock(id: number, patch: BlockPatch): Promise<boolean> {
      return (await db.update(blocks).set({ ...patch, updatedAt: new Date() }).where(eq(blocks.id, id)).returning({ id: blocks.id })).length > 0;
    },
    async deleteBlock(id: number): Promise<boolean> {
      return (await db.delete(blocks).where(eq(blocks.id, id)).returning({ id: blocks.id })).length > 0;
    },
    async insertBlockItems(rows: NewBlockItem[]): Promise<{ id: number; blockId: number }[]> {
      if (rows.length === 0) return [];
      return db.insert(blockItems).values(rows).returning({ id: blockItems.id, blockId: blockItems.blockId });
    },
    async updateBlockItem(id: number, patch: BlockItemPatch): Promise<{ blockId: number } | undefined> {
      const [row] = await db
        .update(blockItems)
        .set({ ...patch, updatedAt: new Date() })
        .where(eq(blockItems.id, id))
        .returning({ blockId: blockItems.blockId });
      return row;
    },
    async deleteBlockItem(id: number): Promise<{ blockId: number } | undefined> {
      const [row] = await db.delete(blockItems).where(eq(blockItems.id, id)).returning({ blockId: blockItems.blockId });
      return row;
    },

    async upsertSourceSite(row: NewSourceSite): Promise<void> {
      const { code: _code, ...rest } = row;
      await db
        .insert(sourceSites)
        .values(row)
        .onConflictDoUpdate({ target: sourceSites.code, set: { ...rest, updatedAt: new Date() } });
    },
    async updateSourceSite(code: string, patch: SourceSitePatch): Promise<boolean> {
      const rows = await db
        .update(sourceSites)
        .set({ ...patch, updatedAt: new Date() })
        .where(eq(sourceSites.code, code))
        .returning({ code: sourceSites.code });
      return rows.length > 0;
    },
    async deleteSourceSite(code: string): Promise<boolean> {
      return (await db.delete(sourceSites).where(eq(sourceSites.code, code)).returning({ code: sourceSites.code })).length > 0;
    },
  };
}
