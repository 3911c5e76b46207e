import { sql } from "drizzle-orm";
import { column, containsPattern, defineAdminTable } from "../../http/admin-table.js";

/** The comments table's columns: filter by suite (`item_id`) or member (`user_id`, `username`). */
export const commentTable = defineAdminTable({
  columns: {
    id: column.number("c.id"),
    item_id: column.number("c.item_id"),
    item_title: column.text("i.title"),
    user_id: column.number("c.user_id"),
    username: column.text("u.username"),
    status: column.text("c.status"),
    createtime: column.time("c.created_at"),
  },
  // Newest first by default.
  defaultSort: "createtime",
  search: (term) => {
    const like = containsPattern(term);
    return sql`(lower(c.content) like ${like} or lower(i.title) like ${like} or lower(u.username) like ${like} or lower(u.nickname) like ${like})`;
  },
  tieBreak: sql.raw("c.id"),
});
