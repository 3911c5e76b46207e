import { column, defineAdminTable, titleOrIdSearch } from "../../http/admin-table.js";

/** The collected-data table's columns (filterable and sortable by these API names). */
export const collectedTable = defineAdminTable({
  columns: {
    id: column.number("id"),
    title: column.text("title"),
    source: column.text("source"),
    status: column.number("status"),
    source_url: column.text("source_url"),
    source_id: column.text("source_id"),
    artist: column.text("artist"),
    kind: column.text("kind"),
    playtype: column.text("playtype"),
    source_category: column.text("source_category"),
    source_category_name: column.text("source_category_name"),
    duration: column.number("duration_sec"),
    size: column.number("size_bytes"),
    item_id: column.number("item_id"),
    createtime: column.time("created_at"),
    processtime: column.time("processed_at"),
    last_seen: column.time("last_seen_at"),
  },
  search: titleOrIdSearch("title"),
});
