import { sql } from "drizzle-orm";
import { openDatabase } from "../../db/open.js";
import { queryRows } from "../../db/sql.js";
const h = await openDatabase({ dataDir: process.env.DATA_DIR!, databaseUrl: process.env.DATABASE_URL });
const qs: Record<string,string> = {
 agg1: "select item_id, count(*) from play_events where played_at > now() - interval '90 day' and played_at <= now() group by item_id",
 agg4: "select item_id, count(*) filter (where played_at > now() - interval '1 day') c0, count(*) filter (where played_at > now() - interval '7 day') c1, count(*) filter (where played_at > now() - interval '30 day') c2, count(*) c3 from play_events where played_at > now() - interval '90 day' and played_at <= now() group by item_id",
 scan: "select count(*) from play_events where played_at > now() - interval '90 day' and played_at <= now()",
 items: "select id, source_site, kind from items where status = 'normal'",
};
for (let r = 0; r < 2; r++) for (const [k, q] of Object.entries(qs)) { const t = performance.now(); const rows = await queryRows(h.db, sql.raw(q)); console.log(k, rows.length, (performance.now() - t).toFixed(0), "ms"); }
await h.close();
