import type { AuditRow } from "@contracts/admin-accounts";
import type { AdminTableQuery } from "@contracts/admin-table";
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/sql.js";
import type { AppDatabase } from "../../db/types.js";
import { column, containsPattern, defineAdminTable } from "../../http/admin-table.js";

/**
 * The audit trail's table (超级管理员 only): filter by admin (`admin_id`), action, target type
 * and id, address and time (`createtime` RANGE / BETWEEN); newest first. The keyword matches the
 * action, the target, or the admin's name.
 */
export const auditTable = defineAdminTable({
  columns: {
    id: column.number("a.id"),
    admin_id: column.number("a.admin_id"),
    action: column.text("a.action"),
    target_type: column.text("a.target_type"),
    target_id: column.text("a.target_id"),
    ip: column.text("a.ip"),
    createtime: column.time("a.created_at"),
  },
  search: (term) => {
    const p = containsPattern(term);
    return sql`(lower(a.action) like ${p} or lower(coalesce(a.target_type, '')) like ${p} or lower(coalesce(a.target_id, '')) like ${p}
                or lower(coalesce(ad.username, '')) like ${p} or lower(coalesce(ad.nickname, '')) like ${p})`;
  },
  tieBreak: sql.raw("a.id"),
});

interface AuditSelectRow extends Omit<AuditRow, "before" | "after" | "detail"> {
  detail: Record<string, unknown> | null;
}

/** A page of the audit trail and the count of all rows that match. */
export async function auditTablePage(db: AppDatabase, query: AdminTableQuery): Promise<{ total: number; rows: AuditRow[] }> {
  const q = auditTable(query);
  const from = sql`from audit_log a left join admins ad on ad.id = a.admin_id where ${q.where}`;
  const [rows, [count]] = await Promise.all([
    queryRows<AuditSelectRow>(
      db,
      sql`select a.id::int as id, a.admin_id, coalesce(ad.username, '') as admin_username, coalesce(ad.nickname, '') as admin_nickname,
                 a.action, a.target_type, a.target_id, a.ip, extract(epoch from a.created_at)::int as createtime, a.detail
            ${from} order by ${q.orderBy} limit ${q.limit} offset ${q.offset}`,
    ),
    queryRows<{ n: number }>(db, sql`select count(*)::int as n ${from}`),
  ]);
  return {
    total: count?.n ?? 0,
    rows: rows.map(({ detail, ...row }) => {
      const { before = null, after = null, ...rest } = detail ?? {};
      return { ...row, before, after, detail: rest };
    }),
  };
}

/** The audit trail's reading side, as a service (`services.auditTrail`). */
export const auditTrailService = (db: AppDatabase) => ({ table: (query: AdminTableQuery) => auditTablePage(db, query) });
