import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { AppDatabase } from "../../db/open.js";
import { appSettings } from "../../db/schema/index.js";

/** Where the key that signs visitor ids is kept (app_settings). */
export const VISITOR_SECRET_KEY = "visitor_secret";
const SECRET_BYTES = 32;

/**
 * The key that signs visitor ids, made once per database: the first instance to start inserts
 * a random one, every later start (and every other instance on the same database) reads that
 * one, so a cookie issued by one instance is valid at all of them and across restarts.
 */
export async function loadVisitorSecret(db: AppDatabase): Promise<Buffer> {
  await db
    .insert(appSettings)
    .values({ key: VISITOR_SECRET_KEY, value: randomBytes(SECRET_BYTES).toString("base64url") })
    .onConflictDoNothing({ target: appSettings.key });
  const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, VISITOR_SECRET_KEY));
  const secret = typeof row?.value === "string" ? Buffer.from(row.value, "base64url") : Buffer.alloc(0);
  if (secret.length < SECRET_BYTES) throw new Error(`app_settings.${VISITOR_SECRET_KEY} is not a ${SECRET_BYTES}-byte key`);
  return secret;
}
