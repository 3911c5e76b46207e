/**
 * API load benchmark (issue 3 budget: p99 < 25 ms at 50 connections):
 *
 *   DATA_DIR=/work/benchdata/pglite npx tsx bench/api.ts [--duration 10] [--connections 50]
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/djbench DATA_DIR=/tmp/x npx tsx bench/api.ts
 *
 * Starts bench/serve.ts (the real app on a seeded database: 100000 suites + 50000 singles +
 * 1000000 plays unless --suites/--plays say otherwise; seeding is resumed, so keep the data dir
 * or database to reuse it), then runs autocannon against each endpoint in turn, every request
 * with another category/page or id. autocannon sends no cookie (each request is a new visitor)
 * and, unless --encoding says otherwise, the Accept-Encoding of a browser.
 *
 * Category pages and suites are kept until they change (ADR 0012), so each of those endpoints
 * is measured twice: "cold", right after start-up, when most requests still read the
 * database; and "warm", after every page or id of the run's set was asked once (the steady
 * state of a running site, which the budget is about).
 */
import autocannon from "autocannon";
import os from "node:os";
import { parseArgs } from "node:util";
import { benchClientAddress, resultRow, startBenchServer } from "./bench-server.js";

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "50" },
    suites: { type: "string", default: "100000" },
    plays: { type: "string", default: "1000000" },
    only: { type: "string" },
    // What a browser sends; "identity" measures uncompressed answers.
    encoding: { type: "string", default: "gzip, deflate, br" },
  },
});

const server = await startBenchServer(["--suites", values.suites, "--plays", values.plays]);
const { base, target } = server;
const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)];

const sortPaths = (filter: string) =>
  target.categories.flatMap((c) =>
    Array.from({ length: Math.min(c.pages, 50) }, (_, i) => `/api/forntend/getsort?diyname=${c.diyname}${filter}&page=${i + 1}`),
  );
const newPages = sortPaths("");
const hotPages = sortPaths("&filter=hot");
const suitePaths = target.ids.map((id) => `/api/forntend/getmusicinfo?id=${id}`);

/** `all`: the whole set `path` picks from, asked once between the cold and the warm run. */
const endpoints: { name: string; path: () => string; all?: string[] }[] = [
  { name: "getsort new (pages 1-50)", path: () => pick(newPages), all: newPages },
  { name: "getsort hot (pages 1-50)", path: () => pick(hotPages), all: hotPages },
  { name: "getmusicinfo (random ids)", path: () => pick(suitePaths), all: suitePaths },
  { name: "index", path: () => "/api/forntend/index" },
  // The floor: the HTTP stack plus one trivial query, under the same machine load.
  { name: "baseline /healthz (select 1)", path: () => "/healthz" },
];

/**
 * Each request comes from another client address (198.18.0.0/15, the range set aside for
 * benchmarks), sent as X-Forwarded-For to a server that trusts loopback as its proxy: so each
 * cookie-less request is a new visitor who is issued a signed id and whose view counts, as
 * from real visitors, instead of one address that runs out of new visitor ids (ADR 0014).
 */
const clientAddress = benchClientAddress;

function run(path: () => string, duration: number) {
  return autocannon({
    url: base,
    connections: Number(values.connections),
    duration,
    headers: { "accept-encoding": values.encoding },
    requests: [{ setupRequest: (req) => ({ ...req, path: path(), headers: { ...req.headers, "x-forwarded-for": clientAddress() } }) }],
  });
}

/** Asks for every path once, 8 at a time. */
async function askEach(paths: string[]) {
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const res = await fetch(base + paths[next++], { headers: { "accept-encoding": values.encoding, "x-forwarded-for": clientAddress() } });
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

const rows: Record<string, string | number>[] = [];
async function measure(name: string, path: () => string) {
  const load = os.loadavg()[0].toFixed(2);
  const r = await run(path, Number(values.duration));
  rows.push(resultRow(name, r, load));
}

try {
  console.log(`engine ${target.engine}; ${target.categories.length} categories, ${target.ids.length} sample ids; seed check ${target.seedMs} ms`);
  for (const e of endpoints) {
    if (values.only && !e.name.startsWith(values.only)) continue;
    const probe = await fetch(base + e.path());
    if (!probe.ok) throw new Error(`${e.name}: ${probe.status} ${await probe.text()}`);
    if (e.all) {
      await measure(`${e.name}, cold`, e.path);
      const started = performance.now();
      await askEach(e.all);
      console.log(`${e.name}: asked each of ${e.all.length} once in ${Math.round(performance.now() - started)} ms`);
      await run(e.path, 2); // JIT, connection pools
      await measure(`${e.name}, warm`, e.path);
    } else {
      await run(e.path, 2); // warm-up: caches, JIT, connection pools
      await measure(e.name, e.path);
    }
  }
  console.table(rows);
  console.log(`${values.connections} connections, ${values.duration} s each; load = 1-min load average before the run (${os.cpus().length} cores)`);
} finally {
  server.stop();
}
