import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestAdmin } from "../../testing/admins.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

const SUITES = 100_000;

/** V8's collector, reached without starting the process with --expose-gc. */
function collector(): () => void {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}

/**
 * The suite export at the scale the back office is built for (ADR 0028's 100,000 suites): every
 * row arrives, read from a real socket as a browser would, while the server's heap stays about
 * flat (one page of rows and one chunk of CSV at a time, whatever the total).
 */
describe("exporting 100,000 suites", () => {
  let t: TestApp;
  let url: string;
  let headers: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp("pglite");
    const db = t.database.db;
    // 100,000 suites in one statement (the seed's writes take minutes), titles with commas and quotes.
    const titles = sql`'套曲 ' || g || ', "第' || g || '首"'`;
    await db.execute(sql`insert into items (kind, title, play_url, source_site, published_at) select 'mix', ${titles}, '/media/x.mp3', 'local', now() - (g || ' seconds')::interval from generate_series(1, ${SUITES}) g`); // behind the write service's back
    // What autovacuum (PostgreSQL) or the embedded maintenance (PGlite, ADR 0042) does after such a load.
    await db.execute(sql`analyze items`);
    headers = (await createTestAdmin(db, { role: "super" })).headers;
    url = await t.app.listen({ port: 0, host: "127.0.0.1" });
  }, 300_000);
  afterAll(() => t?.close());

  it("streams every row with its live heap growing less than 16 MB", async () => {
    // What the export keeps alive, not the garbage it leaves for the collector: the heap is read
    // after a full collection, every 250 ms while the rows stream (the peak of heapUsed alone
    // depends on when V8 chooses to collect, 60-85 MB for the same run).
    const gc = collector();
    const live = () => {
      gc();
      return process.memoryUsage().heapUsed;
    };
    const began = performance.now();
    const start = live();
    let peak = start;
    const sample = setInterval(() => (peak = Math.max(peak, live())), 250);
    const res = await fetch(`${url}/api/pandaadmin/export/suites?sort=publishtime&order=asc`, { headers });
    expect(res.status).toBe(200);
    // Count line ends without keeping the file (a line break inside a quoted cell would be counted: there is none).
    let lines = 0;
    let bytes = 0;
    let first: Uint8Array | undefined;
    for await (const chunk of res.body!) {
      first ??= chunk;
      bytes += chunk.byteLength;
      for (const b of chunk) if (b === 0x0a) lines++;
    }
    clearInterval(sample);
    expect([...first!.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(lines).toBe(SUITES + 1); // the header line and every suite
    expect(bytes).toBeGreaterThan(SUITES * 60);
    const growth = (peak - start) / 2 ** 20;
    console.log(`export of ${SUITES} suites: ${(bytes / 2 ** 20).toFixed(1)} MB in ${((performance.now() - began) / 1000).toFixed(1)} s, live heap growth at most ${growth.toFixed(1)} MB`);
    expect(growth).toBeLessThan(16); // all 100,000 rows read at once: 40 MB
  }, 300_000);
});
