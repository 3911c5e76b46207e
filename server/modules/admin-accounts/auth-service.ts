import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { adminMessages } from "@contracts/accounts";
import { ADMIN_AUDIT_ACTIONS, adminAccountMessages as m, type AdminLoginRequest, type AdminLoginResult, type AdminOwnPassword } from "@contracts/admin-accounts";
import type { AppDatabase } from "../../db/types.js";
import { AppError, badRequest } from "../../errors.js";
import type { EphemeralStore } from "../../lib/ephemeral-store.js";
import type { Clock } from "../../lib/clock.js";
import type { ClientMeta } from "../accounts/auth-service.js";
import type { CaptchaService } from "../accounts/captcha.js";
import { loginGate, loginThrottle } from "../accounts/login-throttle.js";
import { hashPassword, verifyPassword } from "../accounts/passwords.js";
import { hashToken, type SessionService, toSessionAdmin } from "../accounts/session-service.js";
import type { AuditActor, AuditService } from "../audit/service.js";
import { ipLocation } from "./ip-location.js";
import { adminRepo } from "./repo.js";

const refusal = (status: number, msg: string, failures: number) => new AppError(status, msg, { iscaptcha: failures });

/**
 * The back office login (issue 12) and an admin's own password. The login counts and locks like
 * the site login (ADR 0017: `loginThrottle(store, "admin")`, captcha from the 5th failure,
 * unknown names as slow as known ones), and writes `login_records` with the address's location.
 */
export function adminAuthService(
  db: AppDatabase,
  deps: {
    sessions: SessionService;
    captcha: CaptchaService;
    ephemeral: EphemeralStore;
    audit: AuditService;
    clock: Clock;
    /** DATA_DIR/initial-admin-password.txt: removed once the account that must change its password has. */
    initialPasswordFile?: string;
  },
) {
  const repo = adminRepo(db);
  const throttle = loginThrottle(deps.ephemeral, "admin");
  let dummyHash: Promise<string> | undefined;
  const dummy = () => (dummyHash ??= hashPassword(randomBytes(24).toString("base64url")));

  const record = (adminId: number, client: ClientMeta, success: boolean) =>
    repo.recordLogin({ adminId, ip: client.ip, location: ipLocation(client.ip), userAgent: client.userAgent, success });

  return {
    /** Refusals are AppErrors whose data is `{ iscaptcha }`. */
    async login(input: AdminLoginRequest, client: ClientMeta): Promise<AdminLoginResult> {
      const account = input.username.trim().toLowerCase();
      const gate = await loginGate(throttle, {
        account,
        ip: client.ip,
        captcha: input.captcha,
        verifyCaptcha: (answer) => deps.captcha.verify(client.captchaId, answer),
      });

      const admin = await repo.findByUsername(account);
      const passwordOk = await verifyPassword(admin?.passwordHash ?? (await dummy()), input.password);
      if (!admin || !passwordOk) {
        // A known admin's failed password is on their record too (bounded by the captcha from the 5th failure and the lock: 20 per address per 15 minutes).
        if (admin) await record(admin.id, client, false);
        throw await gate.refuse(m.loginFailed);
      }
      // Only someone who knows the password learns that the account is disabled.
      if (admin.status !== 1) throw refusal(403, adminMessages.accountDisabled, gate.before.failures);

      await gate.succeed();
      const token = await deps.sessions.createAdminSession(admin.id, { ip: client.ip, userAgent: client.userAgent });
      await repo.update(admin.id, { lastLoginAt: deps.clock() });
      await record(admin.id, client, true);
      return { token, admin: toSessionAdmin(admin), iscaptcha: 0 };
    },

    /**
     * The signed-in admin's own password: the old one must match; every other session of the
     * admin ends (this one stays), with an audit row, in one transaction.
     */
    async changeOwnPassword(actor: AuditActor, token: string | undefined, input: AdminOwnPassword): Promise<void> {
      const current = await repo.findById(actor.adminId);
      if (!current) throw new AppError(401, adminMessages.notLoggedIn);
      if (!(await verifyPassword(current.passwordHash, input.oldPassword))) throw badRequest(m.oldPasswordWrong);
      if (input.oldPassword === input.password) throw badRequest(m.samePassword);
      const passwordHash = await hashPassword(input.password);
      await db.transaction(async (tx) => {
        const txRepo = adminRepo(tx);
        // The account's own new password ends its 请先修改初始密码 lock (first start or a super's reset, issue 25).
        await txRepo.update(actor.adminId, { passwordHash, mustChangePassword: false });
        await txRepo.deleteSessions(actor.adminId, token ? hashToken(token) : undefined);
        await deps.audit.record(actor, { action: ADMIN_AUDIT_ACTIONS.password, targetType: "admin", targetId: actor.adminId, detail: { otherSessionsEnded: true } }, tx);
      });
      // The first-start password is no longer valid: its file only invites a wrong guess later.
      if (current.mustChangePassword && deps.initialPasswordFile) await rm(deps.initialPasswordFile, { force: true });
    },
  };
}

export type AdminAuthService = ReturnType<typeof adminAuthService>;
