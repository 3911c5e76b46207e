import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { comments, items, users } from "../../db/schema/index.js";
import { column, containsPattern, defineAdminTable } from "../../http/admin-table.js";

/** The table's aliases: `comments c join users u … join items i` (the repository's FROM). */
export const c = alias(comments, "c");
export const u = alias(users, "u");
export const i = alias(items, "i");

/** The comments table's columns: filter by suite (`item_id`) or member (`user_id`, `username`). */
export const commentTable = defineAdminTable({
  columns: {
    id: column.number(c.id),
    item_id: column.number(c.itemId),
    item_title: column.text(i.title),
    user_id: column.number(c.userId),
    username: column.text(u.username),
    status: column.text(c.status),
    createtime: column.time(c.createdAt),
  },
  // Newest first by default.
  defaultSort: "createtime",
  search: (term) => {
    const like = containsPattern(term);
    return sql`(lower(${c.content}) like ${like} or lower(${i.title}) like ${like} or lower(${u.username}) like ${like} or lower(${u.nickname}) like ${like})`;
  },
  tieBreak: c.id,
});
