/**
 * Pages and APIs through nginx: two instances on PostgreSQL against one instance behind the
 * same nginx, and that one instance asked directly (nginx's own cost), in the same run
 * (issue 14, ADR 0041).
 *
 *   npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/djbench npx tsx bench/cluster.ts
 *     [--duration 10] [--connections 50] [--only /site]
 *
 * The database must be seeded already (bench/README.md: `npm run seed`, or a database
 * bench/api.ts seeded); the instances start as `npm run serve` starts them (scripts/cluster/
 * stack.ts) with SEED_DEMO=0, no collector and no chart rebuilds (the load is the requests).
 * Every request comes from another client address (X-Forwarded-For, which nginx appends to and
 * the instances trust from nginx alone) without a cookie, and takes gzip, as in bench/pages.ts.
 * Each page or API set is asked once by each instance before it is measured (kept answers,
 * ADR 0012/0033: the warm state of a running site). Then, per set, the three configurations
 * alternate in ROUNDS short rounds (the machine is shared: its load drifts over all alike):
 * two instances behind nginx; A alone behind the same nginx (reloaded with A as its only
 * upstream; B idles); A asked directly. req/s over all rounds, p50/p99 the median of the rounds.
 */
import autocannon from "autocannon";
import { sql } from "drizzle-orm";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startCluster } from "../scripts/cluster/stack.js";
import { openDatabase } from "../server/db/open.js";
import { queryRows } from "../server/db/sql.js";
import { categoryPageCounts } from "./category-pages.js";
import { benchClientAddress } from "./bench-server.js";

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "50" },
    only: { type: "string" },
  },
});
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error("set DATABASE_URL to a seeded PostgreSQL database (bench/README.md)");
const ENCODING = "gzip";
const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]!;

// What to ask: the categories' pages and a sample of suites, read once from the database.
const database = await openDatabase({ databaseUrl, dataDir: os.tmpdir(), poolMax: 2 });
const categories = await categoryPageCounts(database.db);
const ids = (await queryRows<{ id: number }>(database.db, sql`select id from items where status = 'normal' order by random() limit 200`)).map((r) => r.id);
const [{ suites }] = await queryRows<{ suites: number }>(database.db, sql`select count(*)::int as suites from items where kind = 'mix'`);
await database.close();

const sortPages = categories.flatMap((c) => Array.from({ length: Math.min(c.pages, 10) }, (_, i) => `/sort/${c.diyname}?page=${i + 1}`));
const sortApi = categories.flatMap((c) => Array.from({ length: Math.min(c.pages, 50) }, (_, i) => `/api/forntend/getsort?diyname=${c.diyname}&page=${i + 1}`));
const suitePages = ids.map((id) => `/site/${id}.html`);
const suiteApi = ids.map((id) => `/api/forntend/getmusicinfo?id=${id}`);
const sets = [
  { name: "page /", all: ["/"] },
  { name: `page /site/{id}.html (${suitePages.length} ids)`, all: suitePages },
  { name: `page /sort/{diyname}?page=1-10 (${sortPages.length})`, all: sortPages },
  { name: `api getsort (pages 1-50, ${sortApi.length})`, all: sortApi },
  { name: `api getmusicinfo (${suiteApi.length} ids)`, all: suiteApi },
  { name: "api index", all: ["/api/forntend/index"] },
  { name: "/healthz (select 1)", all: ["/healthz"] },
].filter((s) => !values.only || s.name.includes(values.only));

const headers = () => ({ "accept-encoding": ENCODING, "x-forwarded-for": benchClientAddress() });
const run = (base: string, all: string[], duration: number) =>
  autocannon({
    url: base,
    connections: Number(values.connections),
    duration,
    headers: { "accept-encoding": ENCODING },
    requests: [{ setupRequest: (req) => ({ ...req, path: pick(all), headers: { ...req.headers, "x-forwarded-for": benchClientAddress() } }) }],
  });

/** Asks for every path once, 8 at a time (each instance keeps its own answers: each is asked). */
async function askEach(base: string, paths: string[]) {
  const queue = paths;
  let next = 0;
  const worker = async () => {
    while (next < queue.length) {
      const res = await fetch(base + queue[next++], { headers: headers() });
      await res.arrayBuffer();
      if (res.status >= 500) throw new Error(`${queue[next - 1]}: ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

const ROUNDS = 3;
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
const rows: Record<string, string | number>[] = [];

const dataDir = await mkdtemp(path.join(os.tmpdir(), "djcluster-bench-"));
const cluster = await startCluster({
  databaseUrl,
  dataDir,
  accessLog: false,
  // Our own answers under load: the real DJ sites are not asked (ADR 0047).
  externalSources: "none",
  env: { SEED_DEMO: "0", COLLECT_INTERVAL_MS: "0", CHARTS_REBUILD_INTERVAL_MS: "0", LOG_LEVEL: "warn" },
});
try {
  const [a, b] = cluster.instances;
  console.log(`engine postgres, ${suites} suites; nginx ${cluster.url}, A ${a!.url}, B ${b!.url}; load ${os.loadavg()[0].toFixed(2)} at start (${os.cpus().length} cores)`);
  const both = [`127.0.0.1:${a!.port}`, `127.0.0.1:${b!.port}`];
  const configs = [
    { label: "2 via nginx", base: cluster.url, upstreams: both },
    { label: "1 via nginx", base: cluster.url, upstreams: [both[0]!] },
    { label: "1 direct", base: a!.url, upstreams: undefined },
  ];
  for (const set of sets) {
    await askEach(a!.url, set.all);
    await askEach(b!.url, set.all);
    const results = configs.map(() => [] as autocannon.Result[]);
    const load = os.loadavg()[0].toFixed(2);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, config] of configs.entries()) {
        if (config.upstreams) await cluster.nginx.setUpstreams(config.upstreams);
        if (round === 0) await run(config.base, set.all, 2); // JIT, connections
        results[i]!.push(await run(config.base, set.all, Number(values.duration) / ROUNDS));
      }
    }
    const row: Record<string, string | number> = { set: set.name, load };
    for (const [i, config] of configs.entries()) {
      const r = results[i]!;
      row[`${config.label} req/s`] = Math.round(r.reduce((n, x) => n + x.requests.total, 0) / Number(values.duration));
      row[`${config.label} p50/p99`] = `${median(r.map((x) => x.latency.p50))} / ${median(r.map((x) => x.latency.p99))}`;
      if (r.some((x) => x.non2xx || x.errors || x.timeouts)) row[`${config.label} failures`] = r.reduce((n, x) => n + x.non2xx + x.errors + x.timeouts, 0);
    }
    rows.push(row);
    console.log(JSON.stringify(row));
  }
  console.table(rows);
  console.log(
    `${values.connections} connections, ${values.duration} s per configuration in ${ROUNDS} alternating rounds after 2 s of warm-up; ` +
      `Accept-Encoding ${ENCODING}; load = 1-min load average before the set (${os.cpus().length} cores, shared)`,
  );
} finally {
  await cluster.stop();
  await rm(dataDir, { recursive: true, force: true });
}
