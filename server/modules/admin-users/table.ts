import { sql } from "drizzle-orm";
import { column, containsPattern, defineAdminTable } from "../../http/admin-table.js";

/** The users table's columns (filterable and sortable by these API names). */
export const userTable = defineAdminTable({
  columns: {
    id: column.number("u.id"),
    username: column.text("u.username"),
    email: column.text("u.email"),
    nickname: column.text("u.nickname"),
    status: column.number("u.status"),
    coins: column.number("u.coins"),
    createtime: column.time("u.created_at"),
    vip_until: column.time("u.vip_until"),
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
    id: column.number("d.id"),
    item_id: column.number("d.item_id"),
    coins: column.number("d.coins_spent"),
    createtime: column.time("d.created_at"),
  },
  search: (term) => sql`lower(i.title) like ${containsPattern(term)}`,
  tieBreak: sql.raw("d.id"),
});
