import { sql } from "drizzle-orm";
import { containsPattern, defineAdminTable, epochOf } from "../../http/admin-table.js";

/** The comments table's columns: filter by suite (`item_id`) or member (`user_id`, `username`). */
export const commentTable = defineAdminTable({
  columns: {
    id: { expr: sql.raw("c.id"), type: "number" },
    item_id: { expr: sql.raw("c.item_id"), type: "number" },
    item_title: { expr: sql.raw("i.title"), type: "text" },
    user_id: { expr: sql.raw("c.user_id"), type: "number" },
    username: { expr: sql.raw("u.username"), type: "text" },
    status: { expr: sql.raw("c.status"), type: "text" },
    createtime: { expr: epochOf("c.created_at"), type: "time" },
  },
  // Newest first by default.
  defaultSort: "createtime",
  search: (term) => {
    const like = containsPattern(term);
    return sql`(lower(c.content) like ${like} or lower(i.title) like ${like} or lower(u.username) like ${like} or lower(u.nickname) like ${like})`;
  },
  tieBreak: sql.raw("c.id"),
});
