/**
 * Category pages, charts and sitemaps at a large catalogue, one client (issue 13, 1,000,000
 * suites; budgets in ADR 0035):
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/djmillion DATA_DIR=/tmp/x \
 *     npx tsx bench/scale.ts --suites 1000000 --plays 10000000 [--runs 200] [--only getsort,getrank,sitemaps]
 *
 * Starts bench/serve.ts (the real app; the seed resumes, so a seeded database is used as it is)
 * and asks one request at a time, so each time is the server's own latency, not queueing:
 * - **getsort**: category pages are kept until they change (ADR 0012), so every request asks
 *   another (category, filter, page) never asked before in the run: each is a miss that reads
 *   the database. Pages in bands 1-10, 11-100, 101-1000 (1000 is the last a visitor can reach),
 *   every category, new and hot, plus page 1000 of every category and filter;
 * - **getrank**: every site, type and period (a read of the stored charts);
 * - **sitemaps**: the index, the pages sitemap, then every items sitemap once (cold: built from
 *   the database) and again (kept), with its size and URL count against the protocol's limits.
 * `/healthz` (one `select 1`) is the reference: alone first, then after every request.
 */
import os from "node:os";
import { parseArgs } from "node:util";
import { startBenchServer } from "./bench-server.js";

const { values } = parseArgs({
  options: {
    suites: { type: "string", default: "1000000" },
    plays: { type: "string", default: "10000000" },
    runs: { type: "string", default: "200" },
    only: { type: "string" },
  },
});
const runs = Number(values.runs);
const only = values.only?.split(",");
const wanted = (name: string) => !only || only.includes(name);

const server = await startBenchServer(["--suites", values.suites, "--plays", values.plays]);
const { base, target } = server;
const headers = { "accept-encoding": "gzip, deflate, br" };
const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]!;
const load = () => os.loadavg()[0]!.toFixed(2);
const ms = (v: number) => Math.round(v * 10) / 10;

async function timed(path: string): Promise<{ ms: number; status: number; body: string }> {
  const started = performance.now();
  const res = await fetch(base + path, { headers });
  const body = await res.text();
  return { ms: performance.now() - started, status: res.status, body };
}

/**
 * p50 / p95 / max of one scenario; any answer but 200 fails the run. A `/healthz` follows each
 * request: its p95 beside the scenario's says how busy the machine was just then.
 */
async function scenario(name: string, paths: string[]) {
  const loadBefore = load();
  const times: number[] = [];
  const floor: number[] = [];
  for (const path of paths) {
    const r = await timed(path);
    if (r.status !== 200) throw new Error(`${name}: ${path} answered ${r.status} ${r.body.slice(0, 200)}`);
    times.push(r.ms);
    floor.push((await timed("/healthz")).ms);
  }
  return { ...summary(name, times, loadBefore), "healthz p95 ms": summary("", floor, "")["p95 ms"] };
}

function summary(name: string, times: number[], loadBefore: string) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => ms(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
  return { scenario: name, n: sorted.length, "p50 ms": at(0.5), "p95 ms": at(0.95), "max ms": at(1), load: loadBefore };
}

const rows: Record<string, string | number>[] = [];
try {
  const groups = target.categories.filter((c) => c.pages > 0);
  console.log(
    `engine ${target.engine}; ${groups.length} categories with items, largest ${Math.max(...groups.map((c) => c.pages))} pages; ` +
      `load ${load()} (${os.cpus().length} cores)`,
  );
  for (let i = 0; i < 50; i++) await timed("/healthz"); // warm-up
  rows.push(await scenario("reference /healthz (select 1)", Array.from({ length: runs }, () => "/healthz")));

  if (wanted("getsort")) {
    // Each (category, filter, page) once in the run: answers are kept, so a repeat would be a hit.
    const asked = new Set<string>();
    const fresh = (pages: [number, number]) => {
      for (;;) {
        const c = pick(groups);
        const hi = Math.min(pages[1], c.pages, 1000);
        if (hi < pages[0]) continue;
        const page = pages[0] + Math.floor(Math.random() * (hi - pages[0] + 1));
        const path = `/api/forntend/getsort?diyname=${c.diyname}&filter=${pick(["new", "hot"])}&page=${page}`;
        if (!asked.has(path)) return asked.add(path), path;
      }
    };
    const band = (pages: [number, number]) => Array.from({ length: runs }, () => fresh(pages));
    rows.push(await scenario("getsort pages 1-10, first ask", band([1, 10])));
    rows.push(await scenario("getsort pages 11-100, first ask", band([11, 100])));
    rows.push(await scenario("getsort pages 101-1000, first ask", band([101, 1000])));
    const last = groups.flatMap((c) =>
      ["new", "hot"].map((f) => `/api/forntend/getsort?diyname=${c.diyname}&filter=${f}&page=${Math.min(c.pages, 1000)}`),
    );
    rows.push(await scenario("getsort last reachable page, every category x filter", last.filter((p) => !asked.has(p))));
    rows.push(await scenario("getsort same pages again (kept)", last));
  }

  if (wanted("getrank")) {
    const ranks = ["djuu", "172minx", "vvvdj", "local"].flatMap((site) =>
      ["mix", "single"].flatMap((type) =>
        ["day", "week", "month", "quarter"]
          .filter((p) => !(type === "single" && p === "day"))
          .map((period) => `/api/forntend/getrank?site=${site}&type=${type}&period=${period}`),
      ),
    );
    rows.push(await scenario(`getrank (${ranks.length} charts, round robin)`, Array.from({ length: runs }, (_, i) => ranks[i % ranks.length]!)));
  }

  if (wanted("sitemaps")) {
    const loadBefore = load();
    const index = await timed("/sitemap.xml");
    const files = [...index.body.matchAll(/<loc>[^<]*(\/sitemap-[^<]+\.xml)<\/loc>/g)].map((m) => m[1]!);
    console.log(`sitemap index: ${files.length} files, ${index.body.length} bytes, ${ms(index.ms)} ms`);
    let urls = 0;
    let largest = { bytes: 0, urls: 0 };
    const times: number[] = [];
    for (const file of files) {
      const r = await timed(file);
      if (r.status !== 200) throw new Error(`${file} answered ${r.status}`);
      const n = r.body.split("<url>").length - 1;
      const bytes = Buffer.byteLength(r.body);
      if (n > 50_000 || bytes > 50 * 1024 * 1024) throw new Error(`${file}: ${n} URLs, ${bytes} bytes: over the sitemap protocol's limits`);
      if (bytes > largest.bytes) largest = { bytes, urls: n };
      urls += n;
      times.push(r.ms);
    }
    console.log(`sitemaps: ${urls} URLs in ${files.length} files; largest ${(largest.bytes / 1e6).toFixed(1)} MB (${largest.urls} URLs)`);
    rows.push(summary("sitemaps, each file first ask (built)", times, loadBefore));
    rows.push(await scenario("sitemaps, each file again (kept or rebuilt)", files));
  }

  console.table(rows);
  console.log(`load average at the end: ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
} finally {
  server.stop();
}
