import { sql } from "drizzle-orm";
import { containsPattern, defineAdminTable, epochOf } from "../../http/admin-table.js";

/** The admins table (super only): filter and sort by these API names. */
export const adminsTable = defineAdminTable({
  columns: {
    id: { expr: sql.raw("id"), type: "number" },
    username: { expr: sql.raw("username"), type: "text" },
    nickname: { expr: sql.raw("nickname"), type: "text" },
    role: { expr: sql.raw("role"), type: "text" },
    status: { expr: sql.raw("status"), type: "number" },
    last_login: { expr: epochOf("last_login_at"), type: "time" },
    createtime: { expr: epochOf("created_at"), type: "time" },
  },
  // Username or nickname contains the term, or the id is it.
  search: (term) => {
    const like = sql`(lower(username) like ${containsPattern(term)} or lower(nickname) like ${containsPattern(term)})`;
    return /^\d{1,9}$/u.test(term) ? sql`(${like} or id = ${Number(term)})` : like;
  },
});
