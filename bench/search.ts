/**
 * Search benchmark: p50/p95 of the search service (local provider, page 1 of 5) per query kind.
 *
 *   npx tsx bench/search.ts [--suites 100000] [--runs 200] [--cap 1000]
 *
 * Database: DATABASE_URL (PostgreSQL) when set, else PGlite under DATA_DIR (default a temp dir).
 * The catalogue is seeded up to --suites (the seed resumes and adds only what is missing, so an
 * already seeded database is reused). The database is left as it is; drop it yourself, e.g.
 * `dropdb -h 127.0.0.1 -U postgres djsearchbench`.
 */
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { searchQuerySchema } from "../contracts/search.js";
import { openDatabase } from "../server/db/open.js";
import { seedDemoCatalogue } from "../server/db/seed/index.js";
import { prepareDemoMedia } from "../server/demo-media/prepare-demo-media.js";
import { LOCAL_SEARCH_CAP, localProvider } from "../server/modules/search/local-provider.js";
import { searchRepo } from "../server/modules/search/repo.js";
import { likePattern, normalize } from "../server/modules/search/search-text.js";
import { searchService } from "../server/modules/search/service.js";
import { sql } from "drizzle-orm";

const { values } = parseArgs({
  options: {
    suites: { type: "string", default: "100000" },
    runs: { type: "string", default: "200" },
    cap: { type: "string" },
  },
});
const suites = Number(values.suites);
const runs = Number(values.runs);
const cap = values.cap === undefined ? LOCAL_SEARCH_CAP : Number(values.cap);

const QUERIES: [kind: string, keyword: string][] = [
  ["1-char Chinese", "夜"],
  ["2-char Chinese", "夜曲"],
  ["4-char Chinese", "经典慢摇"],
  ["artist (3 chars)", "周杰伦"],
  ["pinyin", "yequ"],
  ["initials", "zjl"],
  ["Latin", "remix"],
];

const dataDir = process.env.DATA_DIR ?? (await mkdtemp(path.join(os.tmpdir(), "searchbench-")));
const handle = await openDatabase({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir });
try {
  const media = await prepareDemoMedia(dataDir);
  const seeded = await seedDemoCatalogue(handle, { media, suites, plays: 0 });
  console.log(`engine ${handle.engine}; catalogue ${seeded.totals.mixes} suites + ${seeded.totals.singles} singles; cap ${cap}`);
  const service = searchService([localProvider(handle.db, { cap })]);
  const loadavg = os.loadavg().map((l) => l.toFixed(2)).join(" ");

  // In the same run, interleaved with each search: the query as it was before the sample index
  // (`sampleFirst: false`, the whole trigram index; the repository alone, page 1 of 5) and a
  // `select 1`, the floor of a round trip under the machine's load at that moment.
  const repo = searchRepo(handle.db);
  const table: Record<string, string | number>[] = [];
  const quantiles = (ms: number[]) => {
    ms.sort((a, b) => a - b);
    const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))].toFixed(1);
    return [at(0.5), at(0.95), at(1)];
  };
  const time = async (fn: () => Promise<unknown>, into: number[]) => {
    const t = performance.now();
    await fn();
    into.push(performance.now() - t);
  };
  for (const [kind, keyword] of QUERIES) {
    const query = searchQuerySchema.parse({ keyword });
    const one = /^\p{Script=Han}$/u.test(keyword);
    const whole = () =>
      repo.search({
        pattern: likePattern(keyword)!,
        keyword: normalize(keyword),
        playtype: "mp3",
        limit: 5,
        offset: 0,
        cap: one ? Math.min(cap, 200) : cap,
        walkInIdOrder: one,
        sampleFirst: false,
      });
    for (let i = 0; i < 10; i++) await Promise.all([service.search(query), whole()]); // warm-up
    const [now, before, floor]: number[][] = [[], [], []];
    let total = 0;
    for (let i = 0; i < runs; i++) {
      await time(async () => (total = (await service.search(query)).total), now);
      await time(whole, before);
      await time(() => handle.db.execute(sql`select 1`), floor);
    }
    const [p50, p95, max] = quantiles(now);
    const [b50, b95] = quantiles(before);
    const [f50, f95] = quantiles(floor);
    table.push({ kind, keyword, hits: total, "p50 ms": p50, "p95 ms": p95, "max ms": max, "whole index p50/p95": `${b50} / ${b95}`, "select 1 p50/p95": `${f50} / ${f95}` });
  }
  console.table(table);
  console.log(`load average before the runs: ${loadavg} (${os.cpus().length} cores)`);
} finally {
  await handle.close();
}
