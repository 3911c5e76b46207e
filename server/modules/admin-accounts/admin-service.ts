import { ADMIN_ROLE_NAMES } from "@contracts/accounts";
import {
  ADMIN_AUDIT_ACTIONS as A,
  adminAccountMessages as m,
  type AdminCreate,
  type AdminRow,
  type AdminUpdate,
} from "@contracts/admin-accounts";
import type { AdminTableQuery } from "@contracts/admin-table";
import type { AppDatabase } from "../../db/types.js";
import { badRequest, conflict, notFound } from "../../errors.js";
import { hashPassword } from "../accounts/passwords.js";
import { hashToken } from "../accounts/session-service.js";
import type { AuditActor, AuditService } from "../audit/service.js";
import { type AdminRecord, adminRepo, adminSnapshot } from "./repo.js";
import { adminsTable } from "./table.js";

type Tx = Parameters<Parameters<AppDatabase["transaction"]>[0]>[0];

/**
 * The admins screen (超级管理员 only, issue 12): list, create, nickname and role, enable and
 * disable, reset a password. Every change writes its audit row in the same transaction. Rules:
 * nobody disables or demotes themself, and the last enabled 超级管理员 stays one (checked with
 * the enabled supers locked, so two supers cannot remove each other at once).
 */
export function adminAccountService(db: AppDatabase, deps: { audit: AuditService }) {
  const repo = adminRepo(db);

  /**
   * The row to change, locked. A change that may take a super out (`supers`) first locks every
   * enabled super in id order, then the target: two supers disabling each other at once queue
   * on the same first row instead of deadlocking, and the second sees the first's change.
   */
  async function lockTarget(tx: Tx, id: number, supers = false): Promise<{ target: AdminRecord; enabledSupers: number[] }> {
    const enabledSupers = supers ? await adminRepo(tx).lockEnabledSupers() : [];
    const target = await adminRepo(tx).lock(id);
    if (!target) throw notFound(m.notFound);
    return { target, enabledSupers };
  }
  /** Taking `target` out of the enabled supers must leave one. */
  function keepOneSuper(target: AdminRecord, enabledSupers: number[]): void {
    if (target.role !== "super" || target.status !== 1) return;
    if (enabledSupers.filter((s) => s !== target.id).length === 0) throw badRequest(m.lastSuper);
  }

  return {
    async table(query: AdminTableQuery): Promise<{ total: number; rows: AdminRow[] }> {
      const { total, rows } = await repo.table(adminsTable(query));
      return {
        total,
        rows: rows.map((r) => ({
          ...r,
          role_text: ADMIN_ROLE_NAMES[r.role],
          status_text: r.status === 1 ? "正常" : "禁用",
        })),
      };
    },

    async create(actor: AuditActor, input: AdminCreate): Promise<AdminRow> {
      const username = input.username.trim();
      if (await repo.findByUsername(username)) throw conflict(m.usernameTaken);
      const passwordHash = await hashPassword(input.password);
      const created = await db.transaction(async (tx) => {
        const row = await adminRepo(tx).insertIfFree({ username, passwordHash, nickname: input.nickname.trim(), role: input.role });
        // Someone took the name while the password was hashed.
        if (!row) throw conflict(m.usernameTaken);
        await deps.audit.record(actor, { action: A.create, targetType: "admin", targetId: row.id, before: null, after: adminSnapshot(row) }, tx);
        return row;
      });
      return toRow(created);
    },

    async update(actor: AuditActor, id: number, input: AdminUpdate): Promise<AdminRow> {
      const updated = await db.transaction(async (tx) => {
        const demote = input.role !== undefined && input.role !== "super";
        const { target, enabledSupers } = await lockTarget(tx, id, demote);
        if (demote && target.role === "super") {
          if (target.id === actor.adminId) throw badRequest(m.selfDemote);
          keepOneSuper(target, enabledSupers);
        }
        const patch = { ...(input.nickname !== undefined ? { nickname: input.nickname.trim() } : {}), ...(input.role !== undefined ? { role: input.role } : {}) };
        const after = (await adminRepo(tx).update(id, patch))!;
        await deps.audit.record(actor, { action: A.update, targetType: "admin", targetId: id, before: adminSnapshot(target), after: adminSnapshot(after) }, tx);
        return after;
      });
      return toRow(updated);
    },

    /** Enables or disables; a disabled admin's sessions end at once (and the seam refuses the next request anyway). */
    async setStatus(actor: AuditActor, id: number, status: 0 | 1): Promise<AdminRow> {
      const updated = await db.transaction(async (tx) => {
        const { target, enabledSupers } = await lockTarget(tx, id, status === 0);
        if (status === 0) {
          if (target.id === actor.adminId) throw badRequest(m.selfDisable);
          keepOneSuper(target, enabledSupers);
        }
        const after = (await adminRepo(tx).update(id, { status }))!;
        if (status === 0) await adminRepo(tx).deleteSessions(id);
        await deps.audit.record(actor, { action: A.status, targetType: "admin", targetId: id, before: adminSnapshot(target), after: adminSnapshot(after) }, tx);
        return after;
      });
      return toRow(updated);
    },

    /**
     * A new password set by a super: the admin's sessions end (the caller's own stays when it is
     * theirs). Someone else's password is known to the super, so that admin must change it at the
     * next sign-in (403 请先修改初始密码 until they do), as the first-start account must.
     */
    async resetPassword(actor: AuditActor, id: number, password: string, callerToken?: string): Promise<void> {
      if (!(await repo.findById(id))) throw notFound(m.notFound);
      const passwordHash = await hashPassword(password);
      await db.transaction(async (tx) => {
        const { target } = await lockTarget(tx, id);
        await adminRepo(tx).update(id, { passwordHash, mustChangePassword: id !== actor.adminId });
        await adminRepo(tx).deleteSessions(id, id === actor.adminId && callerToken ? hashToken(callerToken) : undefined);
        await deps.audit.record(actor, { action: A.resetPassword, targetType: "admin", targetId: id, before: adminSnapshot(target), after: adminSnapshot(target), detail: { sessionsEnded: true } }, tx);
      });
    },
  };
}

function toRow(a: AdminRecord): AdminRow {
  return {
    id: a.id,
    username: a.username,
    nickname: a.nickname,
    role: a.role,
    role_text: ADMIN_ROLE_NAMES[a.role],
    status: a.status,
    status_text: a.status === 1 ? "正常" : "禁用",
    last_login: a.lastLoginAt ? Math.floor(a.lastLoginAt.getTime() / 1000) : null,
    createtime: Math.floor(a.createdAt.getTime() / 1000),
  };
}

export type AdminAccountService = ReturnType<typeof adminAccountService>;
