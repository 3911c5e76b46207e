import path from "node:path";
import type { Config } from "../../config.js";
import { openDatabase } from "../../db/open.js";
import { DataDirInUseError } from "../../db/pglite-lock.js";
import { type KeptMail, OUTBOX_MIRROR_FILE, outboxMirror, outboxRepo } from "./outbox.js";

/**
 * What `npm run outbox` shows: the newest kept mails of the configured database (DATABASE_URL,
 * or the embedded one in DATA_DIR). While the server holds the embedded database, its copy in
 * DATA_DIR/outbox.jsonl is read instead.
 */
export async function readOutbox(
  config: Pick<Config, "databaseUrl" | "dataDir">,
  opts: { limit?: number; to?: string } = {},
): Promise<{ mails: KeptMail[]; source: string }> {
  try {
    const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    try {
      const source = handle.engine === "pglite" ? `the embedded database in ${config.dataDir}` : "PostgreSQL (DATABASE_URL)";
      return { mails: await outboxRepo(handle.db).latest(opts), source };
    } finally {
      await handle.close();
    }
  } catch (err) {
    if (!(err instanceof DataDirInUseError)) throw err;
    const file = path.join(config.dataDir, OUTBOX_MIRROR_FILE);
    return { mails: await outboxMirror(file).latest(opts), source: `${file} (the running server holds the embedded database)` };
  }
}
