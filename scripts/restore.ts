/**
 * npm run restore -- --from DIR
 * Puts a backup made by `npm run backup` into DATA_DIR of a stopped site; refuses while the site
 * runs. What DATA_DIR held is moved to DATA_DIR/before-restore-<time>/, not deleted (ADR 0042).
 */
import { parseArgs } from "node:util";
import { loadConfig } from "../server/config.js";
import { restore } from "../server/modules/backup/backup.js";

const { values } = parseArgs({ options: { from: { type: "string" } } });
if (!values.from) {
  console.error("usage: npm run restore -- --from <backup directory>");
  process.exit(2);
}
try {
  await restore(loadConfig(), values.from, (line) => console.log(line));
  console.log(`restored ${values.from} into ${loadConfig().dataDir}; start the site`);
} catch (err) {
  console.error(`restore failed: ${(err as Error).message}`);
  process.exit(1);
}
