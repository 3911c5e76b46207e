import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { AppDatabase } from "./types.js";
import { appSettings } from "./schema/index.js";

const SECRET_BYTES = 32;

/**
 * A key made once per database and kept in `app_settings` under `key`: the first instance to
 * start inserts a random one, every later start (and every other instance on the same database)
 * reads that one, so what one instance signed is valid at all of them and across restarts.
 */
export async function loadAppSecret(db: AppDatabase, key: string): Promise<Buffer> {
  await db
    .insert(appSettings)
    .values({ key, value: randomBytes(SECRET_BYTES).toString("base64url") })
    .onConflictDoNothing({ target: appSettings.key });
  const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, key));
  const secret = typeof row?.value === "string" ? Buffer.from(row.value, "base64url") : Buffer.alloc(0);
  if (secret.length < SECRET_BYTES) throw new Error(`app_settings.${key} is not a ${SECRET_BYTES}-byte key`);
  return secret;
}
