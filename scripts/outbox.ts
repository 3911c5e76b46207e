/**
 * npm run outbox -- [--limit N] [--to address]
 * Prints the newest account mails (email codes) kept while no SMTP_URL is set, from the
 * database named by the environment like `npm run seed`: DATABASE_URL, or the embedded PGlite
 * under DATA_DIR (default ./data), or its copy there while the server is running.
 */
import { parseArgs } from "node:util";
import { loadConfig } from "../server/config.js";
import { formatOutbox } from "../server/modules/mail/outbox.js";
import { readOutbox } from "../server/modules/mail/read-outbox.js";

const { values } = parseArgs({ options: { limit: { type: "string", default: "5" }, to: { type: "string" } } });
const limit = Number(values.limit);
if (!Number.isInteger(limit) || limit < 1) throw new Error(`--limit must be a whole number >= 1, got "${values.limit}"`);

const { mails, source } = await readOutbox(loadConfig(), { limit, to: values.to });
process.stdout.write(formatOutbox(mails, source));
