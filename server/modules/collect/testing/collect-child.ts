/**
 * A collect runner in its own process, for the kill -9 test (collect-kill.test.ts): it opens the
 * database (PGlite data dir or PostgreSQL URL), optionally queues a djuu job, walks jobs against
 * the fixture site and prints one JSON line per stored page, then `{"done": id}`.
 *
 * Env: COLLECT_DATA_DIR or COLLECT_DATABASE_URL, COLLECT_SITE_URL, COLLECT_SITE_HOST,
 * COLLECT_LEASE_MS, COLLECT_QUEUE=1 to queue a job first.
 */
import { openDatabase } from "../../../db/open.js";
import { staticSourceDirectory } from "../../sources/directory.js";
import { djuuEntry } from "../collect.fixtures.js";
import { createCollector } from "../service.js";

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

const say = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

async function main() {
  const database = await openDatabase({ databaseUrl: process.env.COLLECT_DATABASE_URL, dataDir: process.env.COLLECT_DATA_DIR ?? "" });
  const djuu = djuuEntry({ url: env("COLLECT_SITE_URL"), host: env("COLLECT_SITE_HOST") }, { timeoutMs: 5_000 });
  const collector = createCollector({
    db: database.db,
    directory: staticSourceDirectory([djuu.entry]),
    logger: { debug() {}, info() {}, warn() {}, error: (obj, msg) => console.error(msg, obj) },
    intervalMs: 0,
    leaseMs: Number(env("COLLECT_LEASE_MS")),
    runnerId: `child-${process.pid}`,
    onPage: (event) => say({ page: event }),
  });
  if (process.env.COLLECT_QUEUE === "1") await collector.startNow({ source: "djuu" });
  say({ ready: process.pid });
  for (;;) {
    const job = await collector.runner.runOnce();
    if (job?.state === "done") {
      say({ done: job.id, attempts: job.attempts });
      break;
    }
    // Held by a runner that died: wait for its lease to run out.
    if (!job) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await collector.stop();
  djuu.close();
  await database.close();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
