import { eq } from "drizzle-orm";
import { admins } from "../../db/schema/index.js";
import type { AppDatabase } from "../../db/types.js";
import { createTestAdmin } from "../../testing/admins.js";
import { hashPassword } from "../accounts/passwords.js";

let seq = 0;

/** A signed-in admin (createTestAdmin) whose password is `password`, with a name of its own. */
export async function adminWithPassword(
  db: AppDatabase,
  { password = "admin-pass-1", role = "super", status = 1, username }: { password?: string; role?: "super" | "editor"; status?: number; username?: string } = {},
) {
  const name = username ?? `adm${process.pid % 10000}x${++seq}`;
  const admin = await createTestAdmin(db, { role, status, username: name });
  await db.update(admins).set({ passwordHash: await hashPassword(password) }).where(eq(admins.id, admin.id));
  return { ...admin, username: name, password };
}
