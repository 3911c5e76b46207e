/**
 * How long the embedded database's maintenance holds requests (ADR 0042):
 *   ./npmw exec -- tsx bench/pglite-maintenance.ts --data-dir /tmp/djbench-pglite
 * Works on a copy of DATA_DIR/db (never opens the original), then runs VACUUM (ANALYZE) table by
 * table and the backup's archive, while a probe query every 20 ms measures how long a request waits.
 */
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { openPgliteDatabase } from "../server/db/open.js";
import { vacuumAnalyze } from "../server/db/pglite-maintenance.js";
import { queryRows } from "../server/db/sql.js";
import type { AppDatabase } from "../server/db/types.js";

const { values } = parseArgs({ options: { "data-dir": { type: "string" } } });
if (!values["data-dir"]) throw new Error("--data-dir <a DATA_DIR with db/ in it> is required");
const work = await mkdtemp(path.join(tmpdir(), "djmaint-"));
try {
  const dir = path.join(work, "db");
  await cp(path.join(values["data-dir"], "db"), dir, { recursive: true });
  const handle = await openPgliteDatabase(dir);
  const [{ items }] = await queryRows<{ items: number }>(handle.db, sql`select count(*)::int as items from items`);
  const vacuum = await probed(handle.db, () => vacuumAnalyze(handle.db));
  const again = await probed(handle.db, () => vacuumAnalyze(handle.db));
  const copy = await probed(handle.db, () => handle.archiveDataDirTo!(path.join(work, "db.tar")));
  await handle.close();
  console.log(JSON.stringify({ items, vacuum, vacuumAgain: again, backupArchive: copy }, null, 2));
} finally {
  await rm(work, { recursive: true, force: true });
}

/**
 * Runs `work` while a `select 1` is due every 20 ms; a probe's wait counts from when it was due,
 * so it sees both the database's queue and the event loop held by a statement running in WASM.
 */
async function probed<T>(db: AppDatabase, work: () => Promise<T>): Promise<{ result: T; probeMaxMs: number; probes: number }> {
  let done = false;
  let probeMaxMs = 0;
  let probes = 0;
  const probe = (async () => {
    while (!done) {
      const due = performance.now() + 20;
      await new Promise((r) => setTimeout(r, 20));
      await db.execute(sql`select 1`);
      probeMaxMs = Math.max(probeMaxMs, performance.now() - due);
      probes++;
    }
  })();
  const result = await work();
  done = true;
  await probe;
  return { result, probeMaxMs: Math.round(probeMaxMs), probes };
}
