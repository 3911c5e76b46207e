/**
 * The back office's suite table at 100,000 suites (issue 12 budget: p95 < 100 ms):
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/djbench DATA_DIR=/tmp/x npx tsx bench/admin-suites.ts
 *   DATA_DIR=/tmp/djbench-pglite npx tsx bench/admin-suites.ts [--connections 8] [--duration 10]
 *
 * Starts bench/serve.ts (the real app on a seeded database, `--admin`: an editor's token) and
 * asks `GET /pandaadmin/cms/archives/index` the way the screen does, from `--connections`
 * clients at once, each asking again as soon as it has its answer: the first page; a keyword
 * (one of several, a page of 1-3); a category branch with `filter`/`op` channel_id IN (a page
 * of 1-5). p95 is computed from every request's time (autocannon reports no p95).
 */
import os from "node:os";
import { parseArgs } from "node:util";
import { startBenchServer } from "./bench-server.js";

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "8" },
    suites: { type: "string", default: "100000" },
    plays: { type: "string", default: "0" },
  },
});

const server = await startBenchServer(["--suites", values.suites, "--plays", values.plays, "--admin"]);
const { base, target } = server;
const headers = { authorization: `Bearer ${target.adminToken}`, "accept-encoding": "gzip, deflate, br" };
const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]!;
const page = (n: number) => `offset=${(Math.floor(Math.random() * n)) * 10}&limit=10`;
const table = (query: string) => `/pandaadmin/cms/archives/index?model_id=2&sort=id&order=desc&${query}`;

// Words of the seed's titles (cities, DJ names, languages, styles), a year, a Latin style.
const KEYWORDS = ["夜", "粤语", "慢摇", "阿福", "深圳", "越南鼓", "全中文国语", "喊麦", "2024", "vinahouse", "club", "DJ小鱼"];
const channels = (await (await fetch(`${base}/api/pandaadmin/sutie/channels`, { headers })).json()) as {
  data: { id: number; parent_id: number | null; model_id: number }[];
};
const branch = (id: number): number[] => [id, ...channels.data.filter((c) => c.parent_id === id).flatMap((c) => branch(c.id))];
const suiteBranches = channels.data.filter((c) => c.model_id === 2).map((c) => branch(c.id).join(","));
const byChannel = () =>
  table(`filter=${encodeURIComponent(JSON.stringify({ channel_id: pick(suiteBranches) }))}&op=${encodeURIComponent(JSON.stringify({ channel_id: "IN" }))}&${page(5)}`);

const scenarios: { name: string; path: () => string }[] = [
  { name: "first page", path: () => table("offset=0&limit=10") },
  { name: "keyword (12 words, pages 1-3)", path: () => table(`search=${encodeURIComponent(pick(KEYWORDS))}&${page(3)}`) },
  { name: "category branch IN (pages 1-5)", path: byChannel },
  { name: "keyword dj (matches every suite)", path: () => table(`search=dj&${page(3)}`) },
];

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function measure(path: () => string, seconds: number) {
  const times: number[] = [];
  let failures = 0;
  const end = performance.now() + seconds * 1000;
  const client = async () => {
    while (performance.now() < end) {
      const started = performance.now();
      const res = await fetch(base + path(), { headers });
      await res.arrayBuffer();
      if (res.status !== 200) failures++;
      times.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: Number(values.connections) }, client));
  times.sort((a, b) => a - b);
  return { times, failures };
}

const rows: Record<string, string | number>[] = [];
try {
  console.log(`engine ${target.engine}; ${suiteBranches.length} suite categories`);
  for (const s of scenarios) {
    const probe = await fetch(base + s.path(), { headers });
    if (!probe.ok) throw new Error(`${s.name}: ${probe.status} ${await probe.text()}`);
    await measure(s.path, 2); // warm-up: JIT, pools, pages in cache
    const load = os.loadavg()[0]!.toFixed(2);
    const { times, failures } = await measure(s.path, Number(values.duration));
    const ms = (v: number) => Math.round(v * 10) / 10;
    rows.push({
      scenario: s.name,
      "req/s": Math.round(times.length / Number(values.duration)),
      "p50 ms": ms(quantile(times, 0.5)),
      "p95 ms": ms(quantile(times, 0.95)),
      "p99 ms": ms(quantile(times, 0.99)),
      "max ms": ms(times.at(-1)!),
      failures,
      load,
    });
  }
  console.table(rows);
  console.log(`${values.connections} clients, ${values.duration} s each; load = 1-min load average before the run (${os.cpus().length} cores)`);
} finally {
  server.stop();
}
