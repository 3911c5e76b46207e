import type { AppDatabase } from "../../db/open.js";
import { loadAppSecret } from "../../db/app-secret.js";

/** Where the key that signs visitor ids is kept (app_settings). */
export const VISITOR_SECRET_KEY = "visitor_secret";

/**
 * The key that signs visitor ids, made once per database (`loadAppSecret`), so a cookie issued
 * by one instance is valid at all of them and across restarts.
 */
export function loadVisitorSecret(db: AppDatabase): Promise<Buffer> {
  return loadAppSecret(db, VISITOR_SECRET_KEY);
}
