/**
 * Search across sources (issue 11 budgets): `GET /api/forntend/indexsearch` over the catalogue
 * and the three built-in sources (djuu, 172minx, vvvdj: their real adapters) on local fixture
 * sites that answer after a delay drawn from 50–300 ms.
 *
 *   npx tsx bench/search-sources.ts [--duration 12] [--connections 16] [--timeout 1000] [--dead djuu]
 *
 * Budgets: all healthy, p95 within the slowest source's p95 + 50 ms; one source hanging, p95
 * within its timeout + 100 ms. Three runs:
 *  1. healthy: every site answers after its band's delay;
 *  2. `--dead` hangs, its breaker held closed (threshold raised): every search waits the timeout;
 *  3. the same on a fresh server with the default breaker (5 failures, 30 s cool-down): the
 *     searches before it opens wait the timeout, the rest skip the dead source at once.
 *
 * Database: PGlite under DATA_DIR (default a temp dir; the demo catalogue, 240 suites) or
 * DATABASE_URL. Each request is a new keyword (`yequ{n}`: the answer cache, 30 s, would answer a
 * repeat without asking the sites) from another client address (the per-IP search limit). The
 * fixture sites and this closed loop of fetches run in this process; the app in its own.
 */
import { readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { searchPage, SEARCH_ITEMS } from "../server/modules/sources/adapters/djuu.fixtures.js";
import type { SourceOverride } from "../server/modules/sources/registry.js";
import { hang, html, startFixtureSite, status, withLatency, type FixtureHandler, type FixtureSite } from "../server/testing/fixture-site.js";
import { benchClientAddress, startBenchServer, type BenchServer } from "./bench-server.js";

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "12" },
    connections: { type: "string", default: "16" },
    timeout: { type: "string", default: "1000" },
    dead: { type: "string", default: "djuu" },
    // Per source, the band its delay is drawn from (uniform), ms.
    bands: { type: "string", default: "djuu:50-150,172minx:100-200,vvvdj:150-300" },
  },
});
const duration = Number(values.duration) * 1000;
const connections = Number(values.connections);
const timeoutMs = Number(values.timeout);
const bands = Object.fromEntries(
  values.bands.split(",").map((b) => {
    const [code, range] = b.split(":");
    const [lo, hi] = range!.split("-").map(Number);
    return [code!, { lo: lo!, hi: hi! }];
  }),
);

const fixturePage = (dir: string, name: string) =>
  readFileSync(new URL(`../server/modules/sources/parsers/fixtures/${dir}/${name}`, import.meta.url), "utf8");
const minxFirewall: FixtureHandler = (req, res, match) => {
  const keyword = new URL(req.url ?? "/", "http://x").searchParams.get("query") ?? "";
  // As the site's firewall (logged out): non-ASCII queries are refused. The bench's keywords are ASCII.
  if (/[^\x00-\x7f]/u.test(keyword)) return status(403, "403 Forbidden")(req, res, match);
  return html(fixturePage("172minx", "search.html"))(req, res, match);
};
/** Each site's search route and its answer (the same page whatever the keyword). */
const SITES: { code: string; path: string; answer: FixtureHandler }[] = [
  { code: "djuu", path: "/search", answer: html(searchPage(SEARCH_ITEMS, { page: 1, nextPage: true })) },
  { code: "172minx", path: "/searches", answer: minxFirewall },
  { code: "vvvdj", path: "/search/so", answer: html(fixturePage("vvvdj", "search.html")) },
];

interface Site {
  code: string;
  site: FixtureSite;
  /** Per search answered: the delay drawn and the time from arrival to the last byte written. */
  drawn: number[];
  served: number[];
}
const dead = new Set<string>();
const sites: Site[] = await Promise.all(
  SITES.map(async ({ code, path: route, answer }) => {
    const site = await startFixtureSite();
    const entry: Site = { code, site, drawn: [], served: [] };
    const band = bands[code]!;
    site.route(route, (req, res, match) => {
      if (dead.has(code)) return hang(req, res, match);
      const arrived = performance.now();
      const delay = band.lo + Math.random() * (band.hi - band.lo);
      res.on("finish", () => {
        entry.drawn.push(delay);
        entry.served.push(performance.now() - arrived);
      });
      return withLatency(delay, answer)(req, res, match);
    });
    return entry;
  }),
);

/** Realistic timeouts, but no queueing in our own client: the bench's load is ours, not the sites'. */
const overrides = (): Record<string, SourceOverride> =>
  Object.fromEntries(
    sites.map(({ code, site }) => [
      code,
      {
        baseUrl: site.url,
        ...(code === "djuu" ? { apiBaseUrl: `${site.url}/app/v1` } : {}),
        allowAddresses: [site.host],
        timeoutMs,
        concurrency: connections * 2,
        minIntervalMs: 0,
      },
    ]),
  );

const dataDir = process.env.DATA_DIR ?? (await mkdtemp(path.join(os.tmpdir(), "sourcesbench-")));
process.env.DATA_DIR = dataDir;
const serve = (breakerThreshold?: number) =>
  startBenchServer([
    "--suites", "240", "--plays", "0",
    "--sources", JSON.stringify(overrides()),
    ...(breakerThreshold ? ["--breaker-threshold", String(breakerThreshold)] : []),
  ]);

interface Sample {
  ms: number;
  errors: { source: string; msg: string }[];
  hits: number;
}
let counter = 0;
/** A closed loop: `connections` searches at a time for `ms`, each a new keyword. */
async function searchLoop(server: BenchServer, ms: number): Promise<Sample[]> {
  const samples: Sample[] = [];
  const until = performance.now() + ms;
  const worker = async () => {
    while (performance.now() < until) {
      const keyword = `yequ${++counter}`;
      const started = performance.now();
      const res = await fetch(`${server.base}/api/forntend/indexsearch?keyword=${keyword}`, { headers: { "x-forwarded-for": benchClientAddress() } });
      const body = (await res.json()) as { code: number; data?: { errors: Sample["errors"]; list: unknown[] } };
      const elapsed = performance.now() - started;
      if (res.status !== 200 || body.code !== 1) throw new Error(`search ${keyword}: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
      samples.push({ ms: elapsed, errors: body.data!.errors, hits: body.data!.list.length });
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  return samples;
}

const quantile = (list: number[], q: number) => {
  if (list.length === 0) return NaN;
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
};
const f = (n: number) => (Number.isNaN(n) ? "-" : n.toFixed(1));
const rows: Record<string, string | number>[] = [];
const row = (run: string, samples: Sample[], budget: string) => {
  const ms = samples.map((s) => s.ms);
  rows.push({ run, searches: samples.length, "p50 ms": f(quantile(ms, 0.5)), "p95 ms": f(quantile(ms, 0.95)), "p99 ms": f(quantile(ms, 0.99)), "max ms": f(quantile(ms, 1)), budget });
};
const resetSites = () => sites.forEach((s) => ((s.drawn.length = 0), (s.served.length = 0)));

console.log(`bands (uniform per request): ${sites.map((s) => `${s.code} ${bands[s.code]!.lo}-${bands[s.code]!.hi} ms`).join(", ")}`);
console.log(`${connections} searches at a time, ${values.duration} s a run; source timeout ${timeoutMs} ms; dead source: ${values.dead}; load ${os.loadavg()[0].toFixed(2)}`);

let server = await serve(1_000_000);
try {
  await searchLoop(server, 2_000); // warm-up: JIT, sockets
  resetSites();

  // 1. Healthy.
  const healthy = await searchLoop(server, duration);
  const failed = healthy.filter((s) => s.errors.length > 0).length;
  const perSource = sites.map((s) => ({ code: s.code, drawnP95: quantile(s.drawn, 0.95), servedP95: quantile(s.served, 0.95), served: s.served }));
  for (const s of perSource) {
    rows.push({ run: `  source ${s.code} (served at the site)`, searches: s.served.length, "p50 ms": f(quantile(s.served, 0.5)), "p95 ms": f(s.servedP95), "p99 ms": f(quantile(s.served, 0.99)), "max ms": f(quantile(s.served, 1)), budget: `drawn p95 ${f(s.drawnP95)}` });
  }
  const slowest = perSource.reduce((a, b) => (b.servedP95 > a.servedP95 ? b : a));
  const healthyP95 = quantile(healthy.map((s) => s.ms), 0.95);
  row("1. all healthy", healthy, `≤ ${slowest.code} p95 + 50 = ${f(slowest.servedP95 + 50)}`);
  if (failed > 0) console.warn(`healthy run: ${failed} answers named a failed source`);

  // 2. One source hanging, its breaker held closed: every search waits the timeout.
  dead.add(values.dead);
  const held = await searchLoop(server, duration);
  row(`2. ${values.dead} hanging, breaker held closed`, held, `≤ ${timeoutMs} + 100 = ${timeoutMs + 100}`);
  server.stop();

  // 3. The default breaker (fresh server, so fresh health).
  dead.delete(values.dead);
  server = await serve();
  await searchLoop(server, 2_000);
  dead.add(values.dead);
  const withBreaker = await searchLoop(server, duration);
  const waited = withBreaker.filter((s) => s.errors.some((e) => e.source === values.dead && e.msg !== "源站暂时不可用"));
  const skipped = withBreaker.filter((s) => s.errors.some((e) => e.source === values.dead && e.msg === "源站暂时不可用"));
  row(`3. ${values.dead} hanging, default breaker: all`, withBreaker, `≤ ${timeoutMs + 100}`);
  row(`   before it opened (waited the timeout)`, waited, `≤ ${timeoutMs + 100}`);
  const alive = perSource.filter((s) => s.code !== values.dead).reduce((a, b) => (b.servedP95 > a.servedP95 ? b : a));
  row(`   after it opened (skipped at once)`, skipped, `≤ ${alive.code} p95 + 50 = ${f(alive.servedP95 + 50)}`);

  console.table(rows);
  console.log(`1. p95 ${f(healthyP95)} ms − slowest source (${slowest.code}) p95 ${f(slowest.servedP95)} ms = ${f(healthyP95 - slowest.servedP95)} ms (budget 50)`);
  console.log(`2. p95 ${f(quantile(held.map((s) => s.ms), 0.95))} ms vs timeout + 100 = ${timeoutMs + 100} ms`);
  console.log(`3. p95 ${f(quantile(withBreaker.map((s) => s.ms), 0.95))} ms (waited: ${waited.length}, skipped: ${skipped.length}); load ${os.loadavg()[0].toFixed(2)} (${os.cpus().length} cores)`);
} finally {
  server.stop();
  await Promise.all(sites.map((s) => s.site.close()));
}
