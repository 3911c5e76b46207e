import { sql } from "drizzle-orm";
import { admins } from "../../db/schema/index.js";
import { column, containsPattern, defineAdminTable } from "../../http/admin-table.js";

/** The admins table (super only): filter and sort by these API names. */
export const adminsTable = defineAdminTable({
  columns: {
    id: column.number(admins.id),
    username: column.text(admins.username),
    nickname: column.text(admins.nickname),
    role: column.text(admins.role),
    status: column.number(admins.status),
    last_login: column.time(admins.lastLoginAt),
    createtime: column.time(admins.createdAt),
  },
  // Username or nickname contains the term, or the id is it.
  search: (term) => {
    const like = sql`(lower(${admins.username}) like ${containsPattern(term)} or lower(${admins.nickname}) like ${containsPattern(term)})`;
    return /^\d{1,9}$/u.test(term) ? sql`(${like} or ${admins.id} = ${Number(term)})` : like;
  },
  tieBreak: admins.id,
});
