import type { AuditRow } from "@contracts/admin-accounts";
import type { AdminTableQuery } from "@contracts/admin-table";
import { eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { admins, auditLog } from "../../db/schema/index.js";
import type { AppDatabase } from "../../db/types.js";
import { column, containsPattern, defineAdminTable, type TableQuery, type TableSource } from "../../http/admin-table.js";

const a = alias(auditLog, "a");
const ad = alias(admins, "ad");

/**
 * The audit trail's table (超级管理员 only): filter by admin (`admin_id`), action, target type
 * and id, address and time (`createtime` RANGE / BETWEEN); newest first. The keyword matches the
 * action, the target, or the admin's name.
 */
export const auditTable = defineAdminTable({
  columns: {
    id: column.number(a.id),
    admin_id: column.number(a.adminId),
    action: column.text(a.action),
    target_type: column.text(a.targetType),
    target_id: column.text(a.targetId),
    ip: column.text(a.ip),
    createtime: column.time(a.createdAt),
  },
  search: (term) => {
    const p = containsPattern(term);
    return sql`(lower(${a.action}) like ${p} or lower(coalesce(${a.targetType}, '')) like ${p} or lower(coalesce(${a.targetId}, '')) like ${p}
                or lower(coalesce(${ad.username}, '')) like ${p} or lower(coalesce(${ad.nickname}, '')) like ${p})`;
  },
  tieBreak: a.id,
  from: sql`${auditLog} ${a}`,
});

const ROW = {
  id: sql<number>`${a.id}::int`,
  admin_id: a.adminId,
  admin_username: sql<string>`coalesce(${ad.username}, '')`,
  admin_nickname: sql<string>`coalesce(${ad.nickname}, '')`,
  action: a.action,
  target_type: a.targetType,
  target_id: a.targetId,
  ip: a.ip,
  createtime: sql<number>`extract(epoch from ${a.createdAt})::int`,
  detail: a.detail,
};

/** One page of the audit trail, its detail split into before, after and the rest. */
async function auditPage(db: AppDatabase, q: TableQuery): Promise<AuditRow[]> {
  const rows = await db.select(ROW).from(a).leftJoin(ad, eq(ad.id, a.adminId)).where(q.where).orderBy(q.orderBy).limit(q.limit).offset(q.offset);
  return rows.map(({ detail, ...row }) => {
    const { before = null, after = null, ...rest } = detail ?? {};
    return { ...row, before, after, detail: rest };
  });
}

/** A page of the audit trail and the count of all rows that match. */
export async function auditTablePage(db: AppDatabase, query: AdminTableQuery): Promise<{ total: number; rows: AuditRow[] }> {
  const q = auditTable(query);
  const [rows, [count]] = await Promise.all([
    auditPage(db, q),
    db.select({ n: sql<number>`count(*)::int` }).from(a).leftJoin(ad, eq(ad.id, a.adminId)).where(q.where),
  ]);
  return { total: count?.n ?? 0, rows };
}
/** The audit trail's reading side, as a service (`services.auditTrail`); `source` walks every match (the CSV export). */
export const auditTrailService = (db: AppDatabase) => ({
  table: (query: AdminTableQuery) => auditTablePage(db, query),
  source: (query: AdminTableQuery): TableSource<AuditRow> => ({ query: auditTable(query), page: (q) => auditPage(db, q) }),
});
