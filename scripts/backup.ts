/**
 * npm run backup [-- --out DIR]
 * A consistent copy of the embedded database and DATA_DIR's media and uploads, while the site
 * runs or while it is stopped (ADR 0042). Default DIR: ./backups/<time>. With DATABASE_URL set,
 * copies the files only: back PostgreSQL up with pg_dump (README, Backups).
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../server/config.js";
import { backup } from "../server/modules/backup/backup.js";

const { values } = parseArgs({ options: { out: { type: "string" } } });
const out = values.out ?? path.join("backups", new Date().toISOString().replace(/[:.]/g, "-"));
try {
  const manifest = await backup(loadConfig(), out, (line) => console.log(line));
  console.log(`backup written to ${path.resolve(out)} (${manifest.createdAt})`);
} catch (err) {
  console.error(`backup failed: ${(err as Error).message}`);
  process.exit(1);
}
