import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, smallint, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, exactlyOne, idColumn, oneOf, tstz, updatedAt } from "./columns.js";

/** Site members. `status` follows the spec: truthy (1) normal, falsy (0) disabled. */
export const users = pgTable(
  "users",
  {
    id: idColumn(),
    username: text("username").notNull(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    nickname: text("nickname").notNull().default(""),
    avatar: text("avatar"),
    bio: text("bio").notNull().default(""),
    status: smallint("status").notNull().default(1),
    coins: integer("coins").notNull().default(0),
    vipUntil: tstz("vip_until"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Login accepts "username or email" in any letter case, so uniqueness is case-insensitive.
    uniqueIndex("users_username_lower_uq").on(sql`lower(${t.username})`),
    uniqueIndex("users_email_lower_uq").on(sql`lower(${t.email})`),
    index("users_nickname_idx").on(t.nickname),
    index("users_created_at_idx").on(t.createdAt),
    oneOf("users_status_check", t.status, ["0", "1"]),
    check("users_coins_check", sql`${t.coins} >= 0`),
  ],
);

/** Back-office accounts live apart from members: a leaked member session can never reach /panda. */
export const ADMIN_ROLES = ["super", "editor"] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

export const admins = pgTable(
  "admins",
  {
    id: idColumn(),
    username: text("username").notNull(),
    passwordHash: text("password_hash").notNull(),
    nickname: text("nickname").notNull().default(""),
    avatar: text("avatar"),
    status: smallint("status").notNull().default(1),
    /** super: everything (admins, sources, settings, users); editor: content only (issue 12). */
    role: text("role", { enum: ADMIN_ROLES }).notNull().default("editor"),
    /**
     * Set on the account made at first start (its password was shown in a log): until it changes
     * its password (POST /api/pandaadmin/password) its other admin calls answer 403 (issue 25).
     */
    mustChangePassword: boolean("must_change_password").notNull().default(false),
    lastLoginAt: tstz("last_login_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("admins_username_lower_uq").on(sql`lower(${t.username})`),
    oneOf("admins_status_check", t.status, ["0", "1"]),
    oneOf("admins_role_check", t.role, ADMIN_ROLES),
  ],
);

/** Login sessions / bearer tokens. Only a hash of the token is stored, never the token itself. */
export const sessions = pgTable(
  "sessions",
  {
    id: idColumn(),
    tokenHash: text("token_hash").notNull().unique("sessions_token_hash_uq"),
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    adminId: integer("admin_id").references(() => admins.id, { onDelete: "cascade" }),
    expiresAt: tstz("expires_at").notNull(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
    lastSeenAt: tstz("last_seen_at").notNull().defaultNow(),
  },
  (t) => [
    exactlyOne("sessions_owner_check", t.userId, t.adminId),
    index("sessions_user_idx").on(t.userId),
    index("sessions_admin_idx").on(t.adminId),
    index("sessions_expires_idx").on(t.expiresAt),
  ],
);

/** Login history for the admin dashboard and the user's own security view. */
export const loginRecords = pgTable(
  "login_records",
  {
    id: idColumn(),
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    adminId: integer("admin_id").references(() => admins.id, { onDelete: "cascade" }),
    success: boolean("success").notNull().default(true),
    ip: text("ip").notNull(),
    location: text("location").notNull().default(""),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
  },
  (t) => [
    exactlyOne("login_records_owner_check", t.userId, t.adminId),
    index("login_records_user_idx").on(t.userId, t.createdAt),
    index("login_records_admin_idx").on(t.adminId, t.createdAt),
    index("login_records_created_idx").on(t.createdAt),
  ],
);

export const EMAIL_CODE_EVENTS = ["register", "resetpwd", "changeemail", "verifyemail"] as const;
export type EmailCodeEvent = (typeof EMAIL_CODE_EVENTS)[number];

/** One-time email codes; the code is stored hashed and limited by expiry and attempts. */
export const emailCodes = pgTable(
  "email_codes",
  {
    id: idColumn(),
    email: text("email").notNull(),
    event: text("event", { enum: EMAIL_CODE_EVENTS }).notNull(),
    codeHash: text("code_hash").notNull(),
    expiresAt: tstz("expires_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    usedAt: tstz("used_at"),
    ip: text("ip"),
    createdAt: createdAt(),
  },
  (t) => [
    oneOf("email_codes_event_check", t.event, EMAIL_CODE_EVENTS),
    index("email_codes_lookup_idx").on(sql`lower(${t.email})`, t.event, t.createdAt),
    index("email_codes_expires_idx").on(t.expiresAt),
  ],
);

/** Embedded-mode email: messages land here (and in the log) when no SMTP_URL is configured. */
export const outboxEmails = pgTable(
  "outbox_emails",
  {
    id: idColumn(),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body"),
    sentAt: tstz("sent_at"),
    error: text("error"),
    createdAt: createdAt(),
  },
  (t) => [index("outbox_emails_to_idx").on(sql`lower(${t.toAddress})`, t.createdAt)],
);
