import { type AdminTableQuery } from "@contracts/admin-table";
import type { AuditAction } from "@contracts/audit-labels";
import { adminUserMessages as m, type AdminUserPatch, type AdminUserRow, USER_STATUS_TEXT } from "@contracts/admin-people";
import type { AppDatabase } from "../../db/types.js";
import { type Clock, systemClock } from "../../lib/clock.js";
import { conflict, notFound } from "../../errors.js";
import { isUniqueViolation } from "../profile/profile-repo.js";
import type { SessionService } from "../accounts/session-service.js";
import type { AuditActor, AuditService } from "../audit/service.js";
import { economyRepo } from "../economy/repo.js";
import { adminUserRepo, type UserChange, type UserRecord } from "./repo.js";
import { userDownloadTable, userTable } from "./table.js";
import type { TableSource } from "../../http/admin-table.js";

const seconds = (at: Date | null) => (at ? Math.floor(at.getTime() / 1000) : null);

/** What the audit trail keeps of a member (never the password hash). */
function auditView(u: UserRecord) {
  return { username: u.username, email: u.email, nickname: u.nickname, coins: u.coins, vipUntil: seconds(u.vipUntil), status: u.status };
}

type Tx = Parameters<Parameters<AppDatabase["transaction"]>[0]>[0];

export interface AdminUserServiceOptions {
  audit: AuditService;
  sessions: Pick<SessionService, "revokeUserSessions">;
  /** The server's clock (the ledger row's time); tests move it. Default: the system's. */
  clock?: Clock;
}

/**
 * The back office's members (issue 12): the table, edits under the account fields' rules, enable
 * and disable (a disabled member's sessions end at once), their downloads. Every change writes
 * its audit row in the same transaction.
 */
export function adminUserService(db: AppDatabase, { audit, sessions, clock = systemClock }: AdminUserServiceOptions) {
  /** Locks the member, applies `change`, records `action`; answers the member before and after. */
  async function change(actor: AuditActor, id: number, action: AuditAction, build: (repo: ReturnType<typeof adminUserRepo>, before: UserRecord) => Promise<UserChange>) {
    try {
      return await db.transaction(async (tx: Tx) => {
        const repo = adminUserRepo(tx);
        const before = await repo.lock(id);
        if (!before) throw notFound(m.notFound);
        const patch = await build(repo, before);
        const after = await repo.update(id, patch);
        // The balance edited by hand: its ledger row, so the balance stays the sum of the ledger (ADR 0061).
        if (after.coins !== before.coins) {
          await economyRepo(tx).record(id, after.coins - before.coins, after.coins, { reason: "admin_set", note: "管理员修改余额", adminId: actor.adminId, at: clock() });
        }
        await audit.record(actor, { action, targetType: "user", targetId: id, before: auditView(before), after: auditView(after) }, tx as unknown as AppDatabase);
        return { before, after };
      });
    } catch (err) {
      // Another member took the address between the check and the write.
      if (isUniqueViolation(err)) throw conflict(m.emailTaken);
      throw err;
    }
  }

  const withText = <R extends { status: number }>(r: R) => ({ ...r, status_text: USER_STATUS_TEXT[r.status] ?? String(r.status) });
  async function view(id: number): Promise<AdminUserRow> {
    const row = await adminUserRepo(db).row(id);
    if (!row) throw notFound(m.notFound);
    return withText(row);
  }

  return {
    async table(query: AdminTableQuery): Promise<{ total: number; rows: AdminUserRow[] }> {
      const { total, rows } = await adminUserRepo(db).table(userTable(query));
      return { total, rows: rows.map(withText) };
    },

    /** Every match of the table's query, page by page (the CSV export). */
    source(query: AdminTableQuery): TableSource<AdminUserRow> {
      return { query: userTable(query), page: async (q) => (await adminUserRepo(db).page(q)).map(withText) };
    },

    async update(actor: AuditActor, id: number, patch: AdminUserPatch): Promise<AdminUserRow> {
      const { after } = await change(actor, id, "user.update", async (repo, before) => {
        const next: UserChange = {};
        if (patch.nickname !== undefined && patch.nickname !== before.nickname) {
          if (await repo.nicknameTaken(patch.nickname, id)) throw conflict(m.nicknameTaken);
          next.nickname = patch.nickname;
        }
        if (patch.email !== undefined && patch.email.toLowerCase() !== before.email.toLowerCase()) {
          if (await repo.emailTaken(patch.email, id)) throw conflict(m.emailTaken);
          next.email = patch.email;
        }
        if (patch.coins !== undefined) next.coins = patch.coins;
        if (patch.vipUntil !== undefined) next.vipUntil = patch.vipUntil === null ? null : new Date(patch.vipUntil * 1000);
        return next;
      });
      return view(after.id);
    },

    /** Enables or disables a member; disabling ends every session of theirs (logged out at once). */
    async setStatus(actor: AuditActor, id: number, status: 0 | 1): Promise<AdminUserRow> {
      const { after } = await change(actor, id, status === 0 ? "user.disable" : "user.enable", async () => ({ status }));
      if (status === 0) await sessions.revokeUserSessions(id);
      return view(after.id);
    },

    async downloads(userId: number, query: AdminTableQuery) {
      const repo = adminUserRepo(db);
      const q = userDownloadTable(query);
      if (!(await repo.row(userId))) throw notFound(m.notFound);
      return repo.downloads(userId, q);
    },
  };
}

export type AdminUserService = ReturnType<typeof adminUserService>;
