import type { BlockItemRow, BlockRow, CategoryRow } from "@contracts/admin-content";
import { BLOCK_POSITIONS, blockTexts } from "@contracts/admin-content-texts";
import { categoryPath } from "@contracts/paths";
import { and, asc, eq, ne, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { blockItems, categories, items } from "../../db/schema/index.js";
import { scalar, selectRows } from "../../db/sql.js";
import type { TableQuery } from "../../http/admin-table.js";
import type { Executor } from "../catalogue-write/repo.js";
import { b, c } from "./tables.js";

/**
 * Reads of the back office's categories and blocks (issue 12). Writes go through the catalogue
 * write service (services.writes); the locks here only make a transaction's checks hold.
 */

const p = alias(categories, "p");
const i = alias(items, "i");
const bi = alias(blockItems, "i");
const n = sql<number>`count(*)::int`;

const CATEGORY_COLUMNS = {
  id: c.id,
  name: c.name,
  diyname: c.diyname,
  sort: c.sort,
  count: scalar<number>(sql`select count(*)::int from ${items} ${i} where ${i.categoryId} = ${c.id} and ${i.deletedAt} is null`),
  parent_id: c.parentId,
  parent_name: p.name,
  enabled: c.enabled,
  model_id: sql<number>`${c.modelId}::int`,
  seo_title: c.seoTitle,
  seo_keywords: c.seoKeywords,
  seo_description: c.seoDescription,
};
type CategorySelect = Omit<CategoryRow, "url">;

const BLOCK_COLUMNS = {
  id: b.id,
  name: b.name,
  position: b.position,
  status: b.status,
  sort: b.sort,
  items: scalar<number>(sql`select count(*)::int from ${blockItems} ${bi} where ${bi.blockId} = ${b.id}`),
};
const BLOCK_ITEM_COLUMNS = {
  id: blockItems.id,
  block_id: blockItems.blockId,
  name: blockItems.name,
  url: blockItems.url,
  image: blockItems.image,
  sort: blockItems.sort,
};
/** A recursive CTE's rows, read under its name `up` (its shape is the table's). */
const up = alias(categories, "up");

const POSITION_TEXT = new Map<string, string>(BLOCK_POSITIONS.map((p) => [p.value, p.label]));

const withUrl = (row: CategorySelect): CategoryRow => ({ ...row, url: categoryPath(row.diyname) });
const blockRow = (row: Omit<BlockRow, "position_text" | "status_text">): BlockRow => ({
  ...row,
  position_text: POSITION_TEXT.get(row.position) ?? row.position,
  status_text: row.status ? blockTexts.enabled : blockTexts.disabled,
});

export function adminContentRepo(db: Executor) {
  return {
    async categoryTable(q: TableQuery): Promise<{ total: number; rows: CategoryRow[] }> {
      const [counted] = await db.select({ n }).from(c).leftJoin(p, eq(p.id, c.parentId)).where(q.where);
      const rows = await db.select(CATEGORY_COLUMNS).from(c).leftJoin(p, eq(p.id, c.parentId)).where(q.where).orderBy(q.orderBy).limit(q.limit).offset(q.offset);
      return { total: counted?.n ?? 0, rows: rows.map(withUrl) };
    },

    /** One category as the table shows it; `lock` holds the row until the transaction ends. */
    async category(id: number, lock = false): Promise<CategoryRow | undefined> {
      const query = db.select(CATEGORY_COLUMNS).from(c).leftJoin(p, eq(p.id, c.parentId)).where(eq(c.id, id));
      const [row] = lock ? await query.for("update", { of: c }) : await query;
      return row && withUrl(row);
    },

    /** Every category in the menu's order, locked until the transaction ends (a drag-to-sort renumbers them). */
    categoriesInOrder(): Promise<{ id: number; sort: number }[]> {
      return db.select({ id: categories.id, sort: categories.sort }).from(categories).orderBy(asc(categories.sort), asc(categories.id)).for("update");
    },

    /** The blocks of one position in their order, locked likewise. */
    blocksInOrder(position: string): Promise<{ id: number; sort: number }[]> {
      return db.select({ id: b.id, sort: b.sort }).from(b).where(eq(b.position, position)).orderBy(asc(b.sort), asc(b.id)).for("update");
    },

    categoryOptions(): Promise<{ id: number; name: string; parent_id: number | null }[]> {
      return db.select({ id: categories.id, name: categories.name, parent_id: categories.parentId }).from(categories).orderBy(asc(categories.sort), asc(categories.id));
    },

    async diynameTaken(diyname: string, exceptId?: number): Promise<boolean> {
      const rows = await db
        .select({ one: sql`1` })
        .from(categories)
        .where(and(sql`lower(${categories.diyname}) = lower(${diyname})`, ne(categories.id, exceptId ?? 0)));
      return rows.length > 0;
    },

    /** The category and every ancestor above it (a parent that leads back to `id` would make a cycle). */
    async ancestorsOf(id: number): Promise<number[]> {
      // A recursive CTE: raw, its row type from the schema (the builder has no `with recursive`).
      const rows = await selectRows(db, { id: up.id }, (fields) =>
        sql`with recursive up(id, parent_id, depth) as (
              select id, parent_id, 0 from categories where id = ${id}
              union all
              select c.id, c.parent_id, up.depth + 1 from categories c join up on c.id = up.parent_id where up.depth < 100
            ) select ${fields} from up`,
      );
      return rows.map((r) => r.id);
    },

    async childCount(id: number): Promise<number> {
      const [row] = await db.select({ n }).from(categories).where(eq(categories.parentId, id));
      return row?.n ?? 0;
    },

    async itemCount(id: number): Promise<number> {
      const [row] = await db.select({ n }).from(items).where(eq(items.categoryId, id));
      return row?.n ?? 0;
    },

    async blockTable(q: TableQuery): Promise<{ total: number; rows: BlockRow[] }> {
      const [counted] = await db.select({ n }).from(b).where(q.where);
      const rows = await db.select(BLOCK_COLUMNS).from(b).where(q.where).orderBy(q.orderBy).limit(q.limit).offset(q.offset);
      return { total: counted?.n ?? 0, rows: rows.map(blockRow) };
    },

    async block(id: number, lock = false): Promise<BlockRow | undefined> {
      const query = db.select(BLOCK_COLUMNS).from(b).where(eq(b.id, id));
      const [row] = lock ? await query.for("update", { of: b }) : await query;
      return row && blockRow(row);
    },

    blockItems(blockId: number): Promise<BlockItemRow[]> {
      return db.select(BLOCK_ITEM_COLUMNS).from(blockItems).where(eq(blockItems.blockId, blockId)).orderBy(asc(blockItems.sort), asc(blockItems.id));
    },

    async blockItem(id: number, lock = false): Promise<BlockItemRow | undefined> {
      const query = db.select(BLOCK_ITEM_COLUMNS).from(blockItems).where(eq(blockItems.id, id));
      const [row] = lock ? await query.for("update") : await query;
      return row;
    },
  };
}
