import { sql } from "drizzle-orm";
import { defineAdminTable, epochOf, titleOrIdSearch } from "../../http/admin-table.js";

/** The collected-data table's columns (filterable and sortable by these API names). */
export const collectedTable = defineAdminTable({
  columns: {
    id: { expr: sql.raw("id"), type: "number" },
    title: { expr: sql.raw("title"), type: "text" },
    source: { expr: sql.raw("source"), type: "text" },
    status: { expr: sql.raw("status"), type: "number" },
    source_url: { expr: sql.raw("source_url"), type: "text" },
    source_id: { expr: sql.raw("source_id"), type: "text" },
    artist: { expr: sql.raw("artist"), type: "text" },
    kind: { expr: sql.raw("kind"), type: "text" },
    playtype: { expr: sql.raw("playtype"), type: "text" },
    source_category: { expr: sql.raw("source_category"), type: "text" },
    source_category_name: { expr: sql.raw("source_category_name"), type: "text" },
    duration: { expr: sql.raw("duration_sec"), type: "number" },
    size: { expr: sql.raw("size_bytes"), type: "number" },
    item_id: { expr: sql.raw("item_id"), type: "number" },
    createtime: { expr: epochOf("created_at"), type: "time" },
    processtime: { expr: epochOf("processed_at"), type: "time" },
    last_seen: { expr: epochOf("last_seen_at"), type: "time" },
  },
  search: titleOrIdSearch("title"),
});
