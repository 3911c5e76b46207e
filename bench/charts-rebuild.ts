/**
 * npx tsx bench/charts-rebuild.ts [runs] [stepMinutes] [--recount]
 * Times chart rebuilds (and one side read) on the database named by the environment:
 * DATABASE_URL (PostgreSQL) or the embedded PGlite under DATA_DIR. Seed it first, e.g.
 * `DATA_DIR=/tmp/x npm run seed -- --suites 20000 --plays 200000`.
 */
import { sql } from "drizzle-orm";
import { loadConfig } from "../server/config.js";
import { openDatabase } from "../server/db/open.js";
import { queryRows } from "../server/db/sql.js";
import { chartsService } from "../server/modules/charts/service.js";
import { TALLY_KEY } from "../server/modules/charts/tally-repo.js";

const args = process.argv.slice(2).filter((a) => a !== "--recount");
// --recount: forget the running counts first, so the first rebuild counts every event (as the
// first start after migration 0003 does).
const recount = process.argv.includes("--recount");
const runs = Number(args[0] ?? 5);
// Each rebuild ends its windows this much later than the one before, as the background job does
// (default 5 min, its interval). The first one after the item_plays migration counts every event.
const stepMs = Number(args[1] ?? 5) * 60_000;
const config = loadConfig();
const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  const [size] = await queryRows<{ items: number; plays: number }>(
    handle.db,
    sql`select (select count(*)::int from items) as items, (select count(*)::int from play_events) as plays`,
  );
  const charts = chartsService(handle.db);
  if (recount) {
    await handle.db.execute(sql`delete from app_settings where key = ${TALLY_KEY}`);
    await handle.db.execute(sql`truncate item_plays`);
  }
  const times: number[] = [];
  let rows = 0;
  const t0 = Date.now();
  for (let i = 0; i < runs; i++) {
    const result = await charts.rebuildCharts(new Date(t0 + i * stepMs));
    if (result.status !== "rebuilt") throw new Error(`rebuild ${result.status}: ${result.reason}`);
    times.push(result.ms);
    rows = result.rows;
  }
  const s0 = performance.now();
  const side = await charts.chartSide();
  const sideMs = performance.now() - s0;
  const first = times[0];
  times.sort((a, b) => a - b);
  console.log(
    `charts on ${handle.engine}: ${size.items} items, ${size.plays} play events -> ${rows} chart rows; ` +
      `rebuild ms first ${first}, min ${times[0]} median ${times[Math.floor(times.length / 2)]} max ${times.at(-1)} (${runs} runs, ${stepMs / 60_000} min apart); ` +
      `side read ${sideMs.toFixed(1)} ms (${Object.keys(side).join(", ")})`,
  );
} finally {
  await handle.close();
}
