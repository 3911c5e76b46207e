import { sql } from "drizzle-orm";
import { containsPattern, defineAdminTable, epochOf } from "../../http/admin-table.js";

/** The users table's columns (filterable and sortable by these API names). */
export const userTable = defineAdminTable({
  columns: {
    id: { expr: sql.raw("u.id"), type: "number" },
    username: { expr: sql.raw("u.username"), type: "text" },
    email: { expr: sql.raw("u.email"), type: "text" },
    nickname: { expr: sql.raw("u.nickname"), type: "text" },
    status: { expr: sql.raw("u.status"), type: "number" },
    coins: { expr: sql.raw("u.coins"), type: "number" },
    createtime: { expr: epochOf("u.created_at"), type: "time" },
    vip_until: { expr: epochOf("u.vip_until"), type: "time" },
  },
  // The account name, the address, the nickname, or the id.
  search: (term) => {
    const like = containsPattern(term);
    const text = sql`(lower(u.username) like ${like} or lower(u.email) like ${like} or lower(u.nickname) like ${like})`;
    return /^\d{1,9}$/u.test(term) ? sql`(${text} or u.id = ${Number(term)})` : text;
  },
  tieBreak: sql.raw("u.id"),
});

/** One member's downloads. */
export const userDownloadTable = defineAdminTable({
  columns: {
    id: { expr: sql.raw("d.id"), type: "number" },
    item_id: { expr: sql.raw("d.item_id"), type: "number" },
    coins: { expr: sql.raw("d.coins_spent"), type: "number" },
    createtime: { expr: epochOf("d.created_at"), type: "time" },
  },
  search: (term) => sql`lower(i.title) like ${containsPattern(term)}`,
  tieBreak: sql.raw("d.id"),
});
