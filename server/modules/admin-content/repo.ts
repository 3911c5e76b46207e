import type { BlockItemRow, BlockRow, CategoryRow } from "@contracts/admin-content";
import { BLOCK_POSITIONS, blockTexts } from "@contracts/admin-content-texts";
import { categoryPath } from "@contracts/paths";
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/sql.js";
import type { TableQuery } from "../../http/admin-table.js";
import type { Executor } from "../catalogue-write/repo.js";

/**
 * Reads of the back office's categories and blocks (issue 12). Writes go through the catalogue
 * write service (services.writes); the locks here only make a transaction's checks hold.
 */

type CategorySelect = Omit<CategoryRow, "url">;

const CATEGORY_COLUMNS = sql.raw(`c.id, c.name, c.diyname, c.sort,
  (select count(*)::int from items i where i.category_id = c.id) as count,
  c.parent_id, p.name as parent_name, c.enabled, c.model_id::int as model_id,
  c.seo_title, c.seo_keywords, c.seo_description`);

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
      const from = sql`from categories c left join categories p on p.id = c.parent_id where ${q.where}`;
      const [count] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n ${from}`);
      const rows = await queryRows<CategorySelect>(db, sql`select ${CATEGORY_COLUMNS} ${from} order by ${q.orderBy} limit ${q.limit} offset ${q.offset}`);
      return { total: count?.n ?? 0, rows: rows.map(withUrl) };
    },

    /** One category as the table shows it; `lock` holds the row until the transaction ends. */
    async category(id: number, lock = false): Promise<CategoryRow | undefined> {
      const [row] = await queryRows<CategorySelect>(
        db,
        sql`select ${CATEGORY_COLUMNS} from categories c left join categories p on p.id = c.parent_id
             where c.id = ${id} ${lock ? sql`for update of c` : sql``}`,
      );
      return row && withUrl(row);
    },

    categoryOptions(): Promise<{ id: number; name: string; parent_id: number | null }[]> {
      return queryRows(db, sql`select id, name, parent_id from categories order by sort, id`);
    },

    async diynameTaken(diyname: string, exceptId?: number): Promise<boolean> {
      const rows = await queryRows(db, sql`select 1 from categories where lower(diyname) = lower(${diyname}) and id <> ${exceptId ?? 0}`);
      return rows.length > 0;
    },

    /** The category and every ancestor above it (a parent that leads back to `id` would make a cycle). */
    async ancestorsOf(id: number): Promise<number[]> {
      const rows = await queryRows<{ id: number }>(
        db,
        sql`with recursive up(id, parent_id, depth) as (
              select id, parent_id, 0 from categories where id = ${id}
              union all
              select c.id, c.parent_id, up.depth + 1 from categories c join up on c.id = up.parent_id where up.depth < 100
            ) select id from up`,
      );
      return rows.map((r) => r.id);
    },

    async childCount(id: number): Promise<number> {
      const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from categories where parent_id = ${id}`);
      return row?.n ?? 0;
    },

    async itemCount(id: number): Promise<number> {
      const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from items where category_id = ${id}`);
      return row?.n ?? 0;
    },

    async blockTable(q: TableQuery): Promise<{ total: number; rows: BlockRow[] }> {
      const [count] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from blocks b where ${q.where}`);
      const rows = await queryRows<Omit<BlockRow, "position_text" | "status_text">>(
        db,
        sql`select b.id, b.name, b.position, b.status, b.sort,
                   (select count(*)::int from block_items i where i.block_id = b.id) as items
              from blocks b where ${q.where} order by ${q.orderBy} limit ${q.limit} offset ${q.offset}`,
      );
      return { total: count?.n ?? 0, rows: rows.map(blockRow) };
    },

    async block(id: number, lock = false): Promise<BlockRow | undefined> {
      const [row] = await queryRows<Omit<BlockRow, "position_text" | "status_text">>(
        db,
        sql`select b.id, b.name, b.position, b.status, b.sort,
                   (select count(*)::int from block_items i where i.block_id = b.id) as items
              from blocks b where b.id = ${id} ${lock ? sql`for update of b` : sql``}`,
      );
      return row && blockRow(row);
    },

    blockItems(blockId: number): Promise<BlockItemRow[]> {
      return queryRows(db, sql`select id, block_id, name, url, image, sort from block_items where block_id = ${blockId} order by sort, id`);
    },

    async blockItem(id: number, lock = false): Promise<BlockItemRow | undefined> {
      const [row] = await queryRows<BlockItemRow>(
        db,
        sql`select id, block_id, name, url, image, sort from block_items where id = ${id} ${lock ? sql`for update` : sql``}`,
      );
      return row;
    },
  };
}
