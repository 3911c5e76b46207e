import { admins } from "../db/schema/index.js";
import type { AppDatabase } from "../db/types.js";
import { sessionService } from "../modules/accounts/session-service.js";

let seq = 0;

/** An admin of the given role with a signed-in session: its id and the request header. */
export async function createTestAdmin(
  db: AppDatabase,
  { role = "super", status = 1, username }: { role?: "super" | "editor"; status?: number; username?: string } = {},
): Promise<{ id: number; token: string; headers: { authorization: string } }> {
  const [row] = await db
    .insert(admins)
    .values({ username: username ?? `test-admin-${process.pid}-${++seq}`, passwordHash: "x", status, role })
    .returning({ id: admins.id });
  const token = await sessionService(db).createAdminSession(row!.id);
  return { id: row!.id, token, headers: { authorization: `Bearer ${token}` } };
}
