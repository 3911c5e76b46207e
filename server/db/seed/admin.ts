import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { hashPassword } from "../../modules/accounts/passwords.js";
import { admins } from "../schema/index.js";
import { silentLogger, type DatabaseHandle, type DbLogger } from "../types.js";

export const DEFAULT_ADMIN_USERNAME = "admin";
/** Where the password goes when the log is JSON (kept by log collectors), in DATA_DIR, mode 0600. */
export const INITIAL_PASSWORD_FILE = "initial-admin-password.txt";

/** How the first-start password reaches the operator. */
export type InitialPasswordOutput =
  /** On a terminal (LOG_FORMAT pretty): in the log line, boxed, once. */
  | { to: "terminal" }
  /** JSON logs are stored and shipped: the password goes to a 0600 file, the log says where. */
  | { to: "file"; dataDir: string };

/**
 * On first start, creates the single admin account with a random strong password and shows it
 * once (a warn line on a terminal; a 0600 file named by a warn line when the log is JSON). Does
 * nothing when any admin exists, so the password is never shown again. The account must change
 * that password before anything else (`must_change_password`, issue 25). Two instances starting
 * together cannot both create it: the username is unique, the loser inserts nothing and logs nothing.
 */
export async function ensureAdminAccount(
  handle: DatabaseHandle,
  logger: DbLogger = silentLogger,
  output: InitialPasswordOutput = { to: "terminal" },
): Promise<{ created: boolean }> {
  const { db } = handle;
  const existing = await db.select({ id: admins.id }).from(admins).limit(1);
  if (existing.length > 0) return { created: false };

  const password = randomBytes(18).toString("base64url"); // 24 characters, 144 bits
  const passwordHash = await hashPassword(password);
  const inserted = await db
    .insert(admins)
    .values({ username: DEFAULT_ADMIN_USERNAME, passwordHash, nickname: "管理员", role: "super", mustChangePassword: true })
    .onConflictDoNothing()
    .returning({ id: admins.id });
  if (inserted.length === 0) return { created: false };

  if (output.to === "file") {
    const file = path.join(output.dataDir, INITIAL_PASSWORD_FILE);
    await writeFile(file, `${password}\n`, { mode: 0o600 });
    logger.warn(
      { username: DEFAULT_ADMIN_USERNAME, passwordFile: file },
      `Admin account created. Username: ${DEFAULT_ADMIN_USERNAME}; its password is in ${file} (readable by this user only). ` +
        `Sign in at /panda/login and change it: until then the account can do nothing else`,
    );
    return { created: true };
  }
  // The password is in the message, not in a field: a pino `redact` on "password" must not hide it.
  // `banner`: on a terminal the line is boxed (lib/log-output.ts).
  logger.warn(
    { username: DEFAULT_ADMIN_USERNAME, banner: true },
    `Admin account created. Username: ${DEFAULT_ADMIN_USERNAME}  Password: ${password}  ` +
      `(shown only this once; sign in at /panda/login and change it before anything else)`,
  );
  return { created: true };
}
