import { randomBytes } from "node:crypto";
import { hashPassword } from "../../modules/accounts/passwords.js";
import { admins } from "../schema/index.js";
import { silentLogger, type DatabaseHandle, type DbLogger } from "../types.js";

export const DEFAULT_ADMIN_USERNAME = "admin";

/**
 * On first start, creates the single admin account with a random strong password and logs it
 * once (warn). Does nothing when any admin exists, so the password is never shown again. Two
 * instances starting together cannot both create it: the username is unique, the loser inserts
 * nothing and logs nothing.
 */
export async function ensureAdminAccount(
  handle: DatabaseHandle,
  logger: DbLogger = silentLogger,
): Promise<{ created: boolean }> {
  const { db } = handle;
  const existing = await db.select({ id: admins.id }).from(admins).limit(1);
  if (existing.length > 0) return { created: false };

  const password = randomBytes(18).toString("base64url"); // 24 characters, 144 bits
  const passwordHash = await hashPassword(password);
  const inserted = await db
    .insert(admins)
    .values({ username: DEFAULT_ADMIN_USERNAME, passwordHash, nickname: "管理员", role: "super" })
    .onConflictDoNothing()
    .returning({ id: admins.id });
  if (inserted.length === 0) return { created: false };

  // The password is in the message, not in a field: a pino `redact` on "password" must not hide it.
  // `banner`: on a terminal the line is boxed (lib/log-output.ts); in JSON it is one more field.
  logger.warn(
    { username: DEFAULT_ADMIN_USERNAME, banner: true },
    `Admin account created. Username: ${DEFAULT_ADMIN_USERNAME}  Password: ${password}  ` +
      `(shown only this once; sign in at /panda/login and change it)`,
  );
  return { created: true };
}
