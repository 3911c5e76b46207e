import type { AppDatabase, DbLogger } from "../db/open.js";
import { adminAccountService } from "../modules/admin-accounts/admin-service.js";
import { adminAuthService } from "../modules/admin-accounts/auth-service.js";
import { adminUserService } from "../modules/admin-users/service.js";
import { auditTrailService } from "../modules/audit/table.js";
import { authService } from "../modules/accounts/auth-service.js";
import { captchaService } from "../modules/accounts/captcha.js";
import { emailCodeService } from "../modules/accounts/email-code-service.js";
import { sessionService } from "../modules/accounts/session-service.js";
import { libraryService } from "../modules/library/service.js";
import { economyService } from "../modules/economy/service.js";
import { createMailer, type MailFrom } from "../modules/mail/mailer.js";
import { outboxMirror } from "../modules/mail/outbox.js";
import { playsService } from "../modules/plays/service.js";
import { avatarService } from "../modules/profile/avatar-service.js";
import { profileService } from "../modules/profile/profile-service.js";
import { visitorService } from "../modules/visitors/service.js";
import type { CoreServices } from "./core.js";

export interface AccountInputs {
  db: AppDatabase;
  logger: Pick<DbLogger, "warn" | "error" | "info" | "debug">;
  core: Pick<CoreServices, "clock" | "ephemeral" | "writes" | "audit" | "siteSettings">;
  publicUrl: string;
  mail: { smtpUrl?: string; from: MailFrom; outboxFile?: string };
  uploadsDir: string;
  /** DATA_DIR/initial-admin-password.txt, when the server keeps one (JSON logs). */
  initialPasswordFile?: string;
}

/** People: visitors, sessions, accounts and their mail, libraries and plays, the back office's accounts and audit trail. */
export function accountServices({ db, logger, core, publicUrl, mail, uploadsDir, initialPasswordFile }: AccountInputs) {
  const { clock, ephemeral, writes, audit, siteSettings } = core;
  const sessions = sessionService(db, clock);
  const mailer = createMailer({
    smtpUrl: mail.smtpUrl,
    from: mail.from,
    db,
    logger,
    clock,
    mirror: mail.outboxFile ? outboxMirror(mail.outboxFile) : undefined,
  });
  // A mail names the site by its title in the settings (ADR 0066).
  const emailCodes = emailCodeService(db, { mailer, ephemeral, clock, publicUrl, siteTitle: async () => (await siteSettings.get()).title, logger });
  const captcha = captchaService(ephemeral);
  return {
    adminUsers: adminUserService(db, { audit, sessions, clock }),
    visitors: visitorService(db),
    sessions,
    captcha,
    auth: authService(db, { sessions, captcha, ephemeral }),
    plays: playsService(db, clock),
    library: libraryService(db, { writes, ephemeral, clock }),
    // Coins and VIP: check-ins, purchases, the ledger (ADR 0061).
    economy: economyService(db, { clock, audit }),
    mailer,
    emailCodes,
    profile: profileService(db, { codes: emailCodes, sessions, ephemeral }),
    avatars: avatarService(db, { uploadsDir, logger }),
    // The back office's accounts and audit trail (issue 12, ADR 0027).
    adminAuth: adminAuthService(db, { sessions, captcha, ephemeral, audit, clock, initialPasswordFile }),
    adminAccounts: adminAccountService(db, { audit }),
    auditTrail: auditTrailService(db),
  };
}
