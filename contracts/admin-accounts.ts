import { z } from "zod";
import { adminUsernameField, changePasswordField, fieldMessages, nicknameField, resetPasswordField } from "./account-fields";
import { adminTableAnswer, adminTableQuerySchema } from "./admin-table";
import { adminAccountMessages as m } from "./admin-account-texts";
import { ADMIN_ROLE_CODES, sessionAdminSchema } from "./accounts";
import { authMessages } from "./auth";

export * from "./admin-account-texts";

/**
 * Requests and answers of the back office's accounts (server side; the web imports only their
 * types and admin-account-texts.ts).
 */

/** `POST /api/pandaadmin/login` (spec section 7: username, password, captcha). */
export const adminLoginRequestSchema = z.object({
  username: z.string({ error: m.accountRequired }).trim().min(1, { error: m.accountRequired }).max(64, { error: m.loginFailed }),
  password: z.string({ error: fieldMessages.passwordRequired }).min(1, { error: fieldMessages.passwordRequired }).max(128, { error: m.loginFailed }),
  /** Sent once the form shows it (iscaptcha >= 5); blank counts as none. */
  captcha: z.string({ error: authMessages.captchaWrong }).trim().max(10, { error: authMessages.captchaWrong }).optional(),
});
export type AdminLoginRequest = z.infer<typeof adminLoginRequestSchema>;

export const adminLoginResultSchema = z.object({ token: z.string(), admin: sessionAdminSchema, iscaptcha: z.number().int() });
export type AdminLoginResult = z.infer<typeof adminLoginResultSchema>;
export const adminLoginAnswerSchema = z.union([adminLoginResultSchema, z.object({ iscaptcha: z.number().int() }), z.null()]);

/** `POST /api/pandaadmin/password`: the signed-in admin's own password. */
export const adminOwnPasswordSchema = z
  .object({
    oldPassword: z.string({ error: fieldMessages.oldPasswordRequired }).min(1, { error: fieldMessages.oldPasswordRequired }).max(128),
    password: changePasswordField,
    confirm: z.string({ error: fieldMessages.confirmMismatch }).max(128, { error: fieldMessages.confirmMismatch }),
  })
  .refine((b) => b.password === b.confirm, { error: fieldMessages.confirmMismatch, path: ["confirm"] });
export type AdminOwnPassword = z.infer<typeof adminOwnPasswordSchema>;

const roleField = z.enum(ADMIN_ROLE_CODES, { error: m.roleRequired });

/** `POST /api/pandaadmin/admins`. */
export const adminCreateSchema = z.object({
  username: adminUsernameField,
  password: resetPasswordField,
  nickname: nicknameField,
  role: roleField,
});
export type AdminCreate = z.infer<typeof adminCreateSchema>;

/** `PATCH /api/pandaadmin/admins/:id`: nickname and role (either). */
export const adminUpdateSchema = z
  .object({ nickname: nicknameField.optional(), role: roleField.optional() })
  .refine((b) => b.nickname !== undefined || b.role !== undefined, { error: fieldMessages.nicknameRequired });
export type AdminUpdate = z.infer<typeof adminUpdateSchema>;

export const adminStatusSchema = z.object({ status: z.union([z.literal(0), z.literal(1)], { error: m.badStatus }) });
export const adminResetPasswordSchema = z.object({ password: resetPasswordField });
export const adminIdParamsSchema = z.object({ id: z.coerce.number({ error: m.notFound }).int({ error: m.notFound }).min(1, { error: m.notFound }).max(2_147_483_647, { error: m.notFound }) });

/** One row of the admins table (no password hash, ever). */
export const adminRowSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  nickname: z.string(),
  role: z.enum(ADMIN_ROLE_CODES),
  role_text: z.string(),
  status: z.number().int(),
  status_text: z.string(),
  /** Unix seconds, or null when never logged in. */
  last_login: z.number().int().nullable(),
  createtime: z.number().int(),
});
export type AdminRow = z.infer<typeof adminRowSchema>;
export const adminTableSchema = adminTableAnswer(adminRowSchema);
export const adminIndexQuerySchema = adminTableQuerySchema;

/** One row of the audit trail. */
export const auditRowSchema = z.object({
  id: z.number().int(),
  admin_id: z.number().int().nullable(),
  /** The admin's username and nickname now (empty once the account is gone). */
  admin_username: z.string(),
  admin_nickname: z.string(),
  action: z.string(),
  target_type: z.string().nullable(),
  target_id: z.string().nullable(),
  ip: z.string().nullable(),
  createtime: z.number().int(),
  before: z.unknown(),
  after: z.unknown(),
  /** The rest of the entry's detail (a batch's ids…). */
  detail: z.record(z.string(), z.unknown()),
});
export type AuditRow = z.infer<typeof auditRowSchema>;
export const auditTableSchema = adminTableAnswer(auditRowSchema);
export const auditIndexQuerySchema = adminTableQuerySchema;
