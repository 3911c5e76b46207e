/**
 * Search under load (issue 13): `GET /api/forntend/indexsearch` at 50 connections.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/djbench DATA_DIR=/tmp/x npx tsx bench/search-load.ts
 *   DATA_DIR=/tmp/search-pglite npx tsx bench/search-load.ts [--duration 10] [--connections 50] [--pools 10]
 *
 * Starts bench/serve.ts on the seeded database (seeding resumes, so a seeded one is used as is)
 * and runs autocannon, each request from another client address (the search limit is per IP;
 * serve.ts trusts loopback as its proxy) with a browser's Accept-Encoding:
 *  (a) `index` (the home data, a kept answer) and the popular keywords (a handful, cycling),
 *      measured in the same run: budget popular >= 50% of index's req/s;
 *  (b) 200 distinct keywords drawn from the catalogue (title bigrams, artists, full pinyin,
 *      initials, Latin words; each request the next one, cycling) with the kept answers on,
 *      twice: cold (the run starts with none of them kept) and warm (each kept 30 s and
 *      reloaded as it expires, the steady state): budget p99 < 100 ms on PostgreSQL;
 *  (c) the same 200 keywords on a server that keeps no search answer (`--search-cache-ms 0`):
 *      every request a query, which is what distinct keywords cost before they repeat; once per
 *      pool size of `--pools` (PostgreSQL) and beside /healthz (one `select 1`) as the floor;
 *      the popular keywords too, once: what they cost before answers were kept.
 */
import autocannon from "autocannon";
import os from "node:os";
import { parseArgs } from "node:util";
import { benchClientAddress, LOAD_BENCH_OPTIONS, resultRow, startBenchServer, type BenchServer } from "./bench-server.js";

const { values } = parseArgs({
  options: {
    ...LOAD_BENCH_OPTIONS,
    keywords: { type: "string", default: "200" },
    // PostgreSQL pool sizes for run (c), comma-separated; PGlite has one connection.
    pools: { type: "string", default: "10" },
  },
});
const duration = Number(values.duration);
const POPULAR = ["夜曲", "周杰伦", "yequ", "zjl", "remix", "经典慢摇"];
const serverArgs = ["--suites", values.suites, "--plays", values.plays];

/**
 * Real words people type, drawn from items' search_text (bench/serve.ts --search-samples): a
 * Han pair of a title, a three-character name (most are singers), a DJ's name, full pinyin (or
 * a Latin word of a title), initials. Distinct, and none of the popular ones.
 */
function drawKeywords(samples: string[], count: number): string[] {
  const kinds = [/^\p{Script=Han}{2}$/u, /^\p{Script=Han}{3}$/u, /^dj\p{Script=Han}{2}$/u, /^[a-z]{6,16}$/, /^(?!dj$|rmx$|mix$)[a-z]{2,4}$/];
  const picked = new Set<string>(POPULAR);
  const out: string[] = [];
  for (let i = 0; out.length < count && i < samples.length; i++) {
    const candidates = samples[i].split(" ").filter((w) => kinds[i % kinds.length].test(w) && !picked.has(w));
    const word = candidates[Math.floor(Math.random() * candidates.length)];
    if (word === undefined) continue;
    picked.add(word);
    out.push(word);
  }
  if (out.length < count) throw new Error(`only ${out.length} distinct keywords drawn from ${samples.length} samples`);
  return out;
}

const cycling = (paths: string[]) => {
  let next = 0;
  return () => paths[next++ % paths.length];
};
const searchPath = (keyword: string) => `/api/forntend/indexsearch?keyword=${encodeURIComponent(keyword)}`;

type Row = ReturnType<typeof resultRow>;
const rows: Row[] = [];

async function load(server: BenchServer, path: () => string, seconds: number) {
  return autocannon({
    url: server.base,
    connections: Number(values.connections),
    duration: seconds,
    headers: { "accept-encoding": values.encoding },
    requests: [{ setupRequest: (req) => ({ ...req, path: path(), headers: { ...req.headers, "x-forwarded-for": benchClientAddress() } }) }],
  });
}

async function measure(server: BenchServer, run: string, path: () => string): Promise<Row> {
  const loadAvg = os.loadavg()[0].toFixed(2);
  const r = await load(server, path, duration);
  const row = resultRow(run, r, loadAvg);
  rows.push(row);
  console.log(JSON.stringify(row));
  return row;
}

async function probe(server: BenchServer, path: string) {
  const res = await fetch(server.base + path, { headers: { "x-forwarded-for": benchClientAddress() } });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<{ data: { total?: number } }>;
}

const pools = values.pools.split(",").map((p) => p.trim());
let keywords: string[] = [];
let engine = "";

// (a) and (b): the app as it runs, kept answers on.
{
  const server = await startBenchServer([...serverArgs, "--search-samples", "2000", ...(process.env.DATABASE_URL ? ["--pool", pools[0]] : [])]);
  try {
    engine = server.target.engine;
    keywords = drawKeywords(server.target.searchSamples, Number(values.keywords));
    let found = 0;
    // Page size 1: another query than the runs' (page size 5), so none of their answers is kept yet.
    for (const k of [...POPULAR, ...keywords]) if (((await probe(server, `${searchPath(k)}&pageSize=1`)).data.total ?? 0) > 0) found++;
    console.log(`engine ${engine}; ${keywords.length} distinct keywords (${found - POPULAR.length} of them find something), e.g. ${keywords.slice(0, 12).join(" ")}`);
    // Warm-up: the JIT, and the popular answers kept as a running site has them.
    const index = () => "/api/forntend/index";
    const popular = cycling(POPULAR.map(searchPath));
    await load(server, index, 2);
    await load(server, popular, 2);
    const indexRow = await measure(server, "index (reference)", index);
    const popularRow = await measure(server, `popular (${POPULAR.length} keywords, cycling)`, popular);
    console.log(`popular / index = ${(popularRow["req/s"] / indexRow["req/s"]).toFixed(2)} (budget >= 0.50)`);
    // Cold: the first pass asks the database for each keyword; then the steady state.
    const distinct = cycling(keywords.map(searchPath));
    await measure(server, `${keywords.length} distinct keywords, first pass cold`, distinct);
    await measure(server, `${keywords.length} distinct keywords, warm (kept 30 s, reloaded as they expire)`, distinct);
  } finally {
    server.stop();
    await new Promise((r) => setTimeout(r, 1500)); // PGlite's data dir lock is released on exit
  }
}

// (c): every request a query.
for (const pool of process.env.DATABASE_URL ? pools : ["1 (PGlite)"]) {
  const server = await startBenchServer([...serverArgs, "--search-cache-ms", "0", ...(process.env.DATABASE_URL ? ["--pool", pool] : [])]);
  try {
    const distinct = cycling(keywords.map(searchPath));
    await load(server, distinct, 2);
    await measure(server, `${keywords.length} distinct, no kept answers, pool ${pool}`, distinct);
    // What a popular keyword cost before answers were kept (ADR 0034), once.
    if (pool === pools[0] || !process.env.DATABASE_URL) await measure(server, `popular, no kept answers, pool ${pool}`, cycling(POPULAR.map(searchPath)));
    await measure(server, `/healthz (select 1), pool ${pool}`, () => "/healthz");
  } finally {
    server.stop();
    await new Promise((r) => setTimeout(r, 1500));
  }
}

console.table(rows);
console.log(`engine ${engine}; ${values.connections} connections, ${duration} s each; load = 1-min load average before the run (${os.cpus().length} cores)`);
