import { sql } from "drizzle-orm";
import { column, containsPattern, defineAdminTable } from "../../http/admin-table.js";

/** The admins table (super only): filter and sort by these API names. */
export const adminsTable = defineAdminTable({
  columns: {
    id: column.number("id"),
    username: column.text("username"),
    nickname: column.text("nickname"),
    role: column.text("role"),
    status: column.number("status"),
    last_login: column.time("last_login_at"),
    createtime: column.time("created_at"),
  },
  // Username or nickname contains the term, or the id is it.
  search: (term) => {
    const like = sql`(lower(username) like ${containsPattern(term)} or lower(nickname) like ${containsPattern(term)})`;
    return /^\d{1,9}$/u.test(term) ? sql`(${like} or id = ${Number(term)})` : like;
  },
});
