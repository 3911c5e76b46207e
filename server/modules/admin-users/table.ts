import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { downloads, items, users } from "../../db/schema/index.js";
import { column, containsPattern, defineAdminTable } from "../../http/admin-table.js";

/** The tables' aliases (the repository's FROM: `users u`, `downloads d left join items i`). */
export const u = alias(users, "u");
export const d = alias(downloads, "d");
export const i = alias(items, "i");

/** The users table's columns (filterable and sortable by these API names). */
export const userTable = defineAdminTable({
  columns: {
    id: column.number(u.id),
    username: column.text(u.username),
    email: column.text(u.email),
    nickname: column.text(u.nickname),
    status: column.number(u.status),
    coins: column.number(u.coins),
    createtime: column.time(u.createdAt),
    vip_until: column.time(u.vipUntil),
  },
  // The account name, the address, the nickname, or the id.
  search: (term) => {
    const like = containsPattern(term);
    const text = sql`(lower(${u.username}) like ${like} or lower(${u.email}) like ${like} or lower(${u.nickname}) like ${like})`;
    return /^\d{1,9}$/u.test(term) ? sql`(${text} or ${u.id} = ${Number(term)})` : text;
  },
  tieBreak: u.id,
  from: sql`${users} ${u}`,
});

/** One member's downloads. */
export const userDownloadTable = defineAdminTable({
  columns: {
    id: column.number(d.id),
    item_id: column.number(d.itemId),
    coins: column.number(d.coinsSpent),
    createtime: column.time(d.createdAt),
  },
  search: (term) => sql`lower(${i.title}) like ${containsPattern(term)}`,
  tieBreak: d.id,
});
