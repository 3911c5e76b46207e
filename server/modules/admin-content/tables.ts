import { sql } from "drizzle-orm";
import { column, defineAdminTable, titleOrIdSearch } from "../../http/admin-table.js";

/** The category table's columns (filterable and sortable by these API names). */
export const categoryTable = defineAdminTable({
  columns: {
    id: column.number("c.id"),
    name: column.text("c.name"),
    diyname: column.text("c.diyname"),
    sort: column.number("c.sort"),
    count: column.number("(select count(*) from items i where i.category_id = c.id)"),
    parent_id: column.number("c.parent_id"),
    enabled: column.number("c.enabled::int"),
    model_id: column.number("c.model_id"),
  },
  search: titleOrIdSearch("c.name", "c.id"),
  defaultSort: "sort",
  tieBreak: sql.raw("c.id"),
});

/** The block table's columns. */
export const blockTable = defineAdminTable({
  columns: {
    id: column.number("b.id"),
    name: column.text("b.name"),
    position: column.text("b.position"),
    status: column.number("b.status::int"),
    sort: column.number("b.sort"),
  },
  search: titleOrIdSearch("b.name", "b.id"),
  defaultSort: "id",
  tieBreak: sql.raw("b.id"),
});
