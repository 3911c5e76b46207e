import { sql } from "drizzle-orm";
import { openDatabase } from "../server/db/open.js";
import { queryRows } from "../server/db/sql.js";
const handle = await openDatabase({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir: process.env.DATA_DIR! });
const q = process.argv[2];
for (let i = 0; i < 3; i++) {
  const rows = await queryRows<{ "QUERY PLAN": string }>(handle.db, sql.raw(`explain (analyze, buffers) ${q}`));
  if (i === 2) console.log(rows.map((r) => r["QUERY PLAN"]).join("\n"));
}
await handle.close();
