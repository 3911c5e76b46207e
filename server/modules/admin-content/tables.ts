import { sql } from "drizzle-orm";
import { defineAdminTable, titleOrIdSearch } from "../../http/admin-table.js";

/** The category table's columns (filterable and sortable by these API names). */
export const categoryTable = defineAdminTable({
  columns: {
    id: { expr: sql.raw("c.id"), type: "number" },
    name: { expr: sql.raw("c.name"), type: "text" },
    diyname: { expr: sql.raw("c.diyname"), type: "text" },
    sort: { expr: sql.raw("c.sort"), type: "number" },
    count: { expr: sql.raw("(select count(*) from items i where i.category_id = c.id)"), type: "number" },
    parent_id: { expr: sql.raw("c.parent_id"), type: "number" },
    enabled: { expr: sql.raw("c.enabled::int"), type: "number" },
    model_id: { expr: sql.raw("c.model_id"), type: "number" },
  },
  search: titleOrIdSearch("c.name", "c.id"),
  defaultSort: "sort",
  tieBreak: sql.raw("c.id"),
});

/** The block table's columns. */
export const blockTable = defineAdminTable({
  columns: {
    id: { expr: sql.raw("b.id"), type: "number" },
    name: { expr: sql.raw("b.name"), type: "text" },
    position: { expr: sql.raw("b.position"), type: "text" },
    status: { expr: sql.raw("b.status::int"), type: "number" },
    sort: { expr: sql.raw("b.sort"), type: "number" },
  },
  search: titleOrIdSearch("b.name", "b.id"),
  defaultSort: "id",
  tieBreak: sql.raw("b.id"),
});
