import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { blocks, categories, items } from "../../db/schema/index.js";
import { column, defineAdminTable, titleOrIdSearch } from "../../http/admin-table.js";

/** The tables' aliases (the repository's FROM: `categories c`, `blocks b`). */
export const c = alias(categories, "c");
export const b = alias(blocks, "b");
const i = alias(items, "i");

/** How many suites a category holds (the `count` column's filter and sort; repo.ts selects the same); not those in the recycle bin. */
export const suiteCount = sql<number>`(select count(*) from ${items} ${i} where ${i.categoryId} = ${c.id} and ${i.deletedAt} is null)`;

/** The category table's columns (filterable and sortable by these API names). */
export const categoryTable = defineAdminTable({
  columns: {
    id: column.number(c.id),
    name: column.text(c.name),
    diyname: column.text(c.diyname),
    sort: column.number(c.sort),
    count: column.number(suiteCount),
    parent_id: column.number(c.parentId),
    enabled: column.number(sql`${c.enabled}::int`),
    model_id: column.number(c.modelId),
  },
  search: titleOrIdSearch(c.name, c.id),
  defaultSort: "sort",
  tieBreak: c.id,
});

/** The block table's columns. */
export const blockTable = defineAdminTable({
  columns: {
    id: column.number(b.id),
    name: column.text(b.name),
    position: column.text(b.position),
    status: column.number(sql`${b.status}::int`),
    sort: column.number(b.sort),
  },
  search: titleOrIdSearch(b.name, b.id),
  defaultSort: "id",
  tieBreak: b.id,
});
