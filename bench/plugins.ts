/**
 * Source plugins under load (issue 21 budgets):
 *
 *   npx tsx bench/plugins.ts [--duration 15] [--connections 16] [--plugins 10]
 *
 * 1. Search across the catalogue, the three built-in sources and N plugin sources, 16 at a time:
 *    `GET /api/forntend/indexsearch` on the real app (bench/serve.ts, its own process), every
 *    source on a local fixture site answering after a delay drawn from its band (50–300 ms);
 *    each plugin site answers a ~100 KB page that its plugin parses with cheerio. Budget: p95 no
 *    more than the slowest healthy source's p95 + 50 ms (the reference: the fixture sites' own
 *    arrival-to-last-byte times, measured in the same run).
 * 2. The server's event-loop delay p99 during run 1 (prom-client's, read from /metrics before and
 *    after: it resets on each read). prom-client's histogram records the time between two ticks of
 *    its 10 ms timer, so an idle server reads 10 ms: the delay is that reading minus 10 ms. Budget < 20 ms.
 * 3. The sandbox's cost per call on a 100 KB page: one plugin's `search` through PluginSandbox in
 *    this process against an instant fixture, minus nothing (the fetch is loopback). Budget p95 ≤ 50 ms.
 * 4. Memory per loaded plugin: the server's resident memory with the plugins off and on (the
 *    sandbox's worker thread counted apart), and each plugin's QuickJS heap. Budget ≤ 32 MB.
 *
 * Each request is a new keyword (the answer cache would answer a repeat) from another client
 * address (the per-IP search limit).
 */
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { searchPage, SEARCH_ITEMS } from "../server/modules/sources/adapters/djuu.fixtures.js";
import { PluginSandbox } from "../server/modules/plugins/sandbox/host.js";
import { html, startFixtureSite, type FixtureSite } from "../server/testing/fixture-site.js";
import { benchClientAddress, startBenchServer } from "./bench-server.js";
import { readFileSync } from "node:fs";

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "15" },
    connections: { type: "string", default: "16" },
    plugins: { type: "string", default: "10" },
  },
});
const duration = Number(values.duration) * 1000;
const connections = Number(values.connections);
const pluginCount = Number(values.plugins);

const percentile = (list: number[], p: number) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN;
};
const round = (n: number) => Math.round(n * 10) / 10;

/** A DJ site's search page of ~100 KB: 20 hits in the markup real sites carry around them. */
function bigPage(site: number): string {
  const rows = Array.from({ length: 20 }, (_, i) => {
    const id = site * 1000 + i;
    return `<li class="item" data-id="${id}" data-seconds="${i % 2 ? 3725 : 245}"><div class="pic"><img data-src="https://img.example/c/${id}.jpg" alt=""></div><div class="info"><a class="t" href="/play/${id}.html" title="DJ阿华 - 夜曲串烧${id}">DJ阿华 - 夜曲串烧${id}</a><span class="hits">${id * 7}</span><span class="date">2026-11-${(i % 28) + 1}</span></div><div class="ops"><a href="/down/${id}">下载</a><a href="/fav/${id}">收藏</a></div></li>`;
  }).join("");
  const filler = Array.from({ length: 420 }, (_, i) => `<li class="nav-item"><a href="/sort/c${i}/index.html" title="分类${i}">分类 ${i} 慢摇串烧 中文DISCO 外文CLUB 电音HOUSE</a></li>`).join("");
  const script = `<script>var conf = ${JSON.stringify({ ads: Array.from({ length: 300 }, (_, i) => ({ id: i, img: `https://ads.example/${i}.png`, href: `https://ads.example/go/${i}` })) })};</script>`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>搜索 - 压测DJ${site}</title>${script}</head><body><ul class="nav">${filler}</ul><ul class="list">${rows}</ul><div class="pages"><a class="next" href="?page=2">下一页</a></div><footer>${"<p>友情链接 DJ舞曲 串烧 慢摇</p>".repeat(120)}</footer></body></html>`;
}

/** A plugin in the community's style for one of the fixture sites. */
function benchPlugin(site: number, base: string): string {
  return `const axios = require("axios"); const cheerio = require("cheerio");
module.exports = { platform: "压测DJ${site}", version: "1.0.0", supportedSearchType: ["music"],
  async search(query, page) {
    const res = await axios.get(${JSON.stringify(base)} + "/search", { params: { key: query, page } });
    const $ = cheerio.load(res.data);
    const data = $("ul.list li.item").map((i, el) => { const a = $(el).find("a.t"); const [artist, title] = a.attr("title").split(" - ");
      return { id: $(el).attr("data-id"), title, artist, artwork: $(el).find("img").attr("data-src"), duration: Number($(el).attr("data-seconds")) }; }).get();
    return { isEnd: $("a.next").length === 0, data };
  },
  async getMediaSource(item) { return { url: ${JSON.stringify(base)} + "/media/" + item.id + ".m4a" }; } };`;
}

interface Timed {
  site: FixtureSite;
  served: number[];
}
function timedSite(site: FixtureSite, route: string, body: string, lo: number, hi: number): Timed {
  const timed: Timed = { site, served: [] };
  site.route(route, (req, res, match) => {
    const arrived = performance.now();
    setTimeout(() => {
      html(body)(req, res, match);
      timed.served.push(performance.now() - arrived);
    }, lo + Math.random() * (hi - lo));
  });
  return timed;
}

// Fixture sites: the three built-ins and the plugins' sites, each with its delay band.
const fixture = (dir: string, name: string) => readFileSync(new URL(`../server/modules/sources/parsers/fixtures/${dir}/${name}`, import.meta.url), "utf8");
const builtins = {
  djuu: timedSite(await startFixtureSite(), "/search", searchPage(SEARCH_ITEMS, { page: 1, nextPage: true }), 50, 150),
  "172minx": timedSite(await startFixtureSite(), "/searches", fixture("172minx", "search.html"), 100, 200),
  vvvdj: timedSite(await startFixtureSite(), "/search/so", fixture("vvvdj", "search.html"), 150, 300),
};
const pluginDir = await mkdtemp(path.join(os.tmpdir(), "bench-plugins-"));
const pluginSites: Timed[] = [];
for (let i = 1; i <= pluginCount; i++) {
  const lo = 50 + ((i * 23) % 150);
  const timed = timedSite(await startFixtureSite(), "/search", bigPage(i), lo, lo + 100);
  pluginSites.push(timed);
  await writeFile(path.join(pluginDir, `bench${String(i).padStart(2, "0")}.js`), benchPlugin(i, timed.site.url));
}
console.log(`page size ${Math.round(Buffer.byteLength(bigPage(1)) / 1024)} KB; ${pluginCount} plugin sources, bands 50-300 ms`);

const overrides = Object.fromEntries(
  Object.entries(builtins).map(([code, t]) => [code, { baseUrl: t.site.url, ...(code === "djuu" ? { apiBaseUrl: `${t.site.url}/app/v1` } : {}), allowAddresses: [t.site.host], concurrency: 32, minIntervalMs: 0, timeoutMs: 2_000 }]),
);
process.env.OUTBOUND_ALLOW = "127.0.0.1";
process.env.DATA_DIR ??= await mkdtemp(path.join(os.tmpdir(), "bench-plugins-data-"));
await mkdir(process.env.DATA_DIR, { recursive: true }); // a DATA_DIR given may not exist yet
const metrics = async (base: string) => {
  const text = await (await fetch(`${base}/metrics`)).text();
  const read = (name: string) => Number(new RegExp(`^${name} ([0-9.e+-]+)$`, "mu").exec(text)?.[1] ?? NaN);
  return { rss: read("process_resident_memory_bytes"), lagP99: read("nodejs_eventloop_lag_p99_seconds") };
};

/** prom-client's event-loop monitor ticks every 10 ms and records tick-to-tick times (ADR 0048). */
const PROM_LOOP_RESOLUTION_MS = 10;

/** A closed loop of `connections` searches at a time for `ms`, each a new keyword from another address. */
let n = 0;
async function load(base: string, ms: number, at: number) {
  const latencies: number[] = [];
  const errors: string[] = [];
  const until = performance.now() + ms;
  await Promise.all(
    Array.from({ length: at }, async () => {
      while (performance.now() < until) {
        const started = performance.now();
        const res = await fetch(`${base}/api/forntend/indexsearch?keyword=yequ${++n}`, { headers: { "x-forwarded-for": benchClientAddress() } });
        const body = (await res.json()) as { data?: { errors?: { source: string; msg: string }[] } };
        latencies.push(performance.now() - started);
        for (const e of body.data?.errors ?? []) errors.push(`${e.source} ${e.msg}`);
      }
    }),
  );
  return { latencies, errors };
}

/** One server, warmed up, then each concurrency in turn: search latency, the sources' own times, event-loop delay, memory. */
async function measure(label: string, args: string[], levels: number[]) {
  // As `npm start` runs it: serve's Node flags and environment, logging on (into a file).
  const server = await startBenchServer(["--suites", "240", "--plays", "3000", "--log", "--sources", JSON.stringify(overrides), ...args], {
    asServe: true,
    stdoutFile: path.join(process.env.DATA_DIR!, `server-${label === "with plugins" ? "plugins" : "builtins"}.log`),
  });
  await load(server.base, 3_000, connections);
  const rows: Record<string, Record<string, unknown>> = {};
  let rss = 0;
  for (const at of levels) {
    for (const t of [...Object.values(builtins), ...pluginSites]) t.served.length = 0;
    await metrics(server.base);
    const { latencies, errors } = await load(server.base, duration, at);
    const after = await metrics(server.base);
    rss = Math.max(rss, after.rss);
    const asked = label === "with plugins" ? [...Object.values(builtins), ...pluginSites] : Object.values(builtins);
    const slowest = Math.max(...asked.map((t) => percentile(t.served, 95)));
    if (errors.length) console.log(`${label}, ${at} at a time: errors named, e.g.`, [...new Set(errors)].slice(0, 3));
    rows[`${label}, ${at} at a time`] = {
      "searches/s": round(latencies.length / (duration / 1000)),
      "p50 ms": round(percentile(latencies, 50)),
      "p95 ms": round(percentile(latencies, 95)),
      "slowest source p95 ms": round(slowest),
      "budget ms": round(slowest + 50),
      "prom-client p99 ms": round(after.lagP99 * 1000),
      "loop delay p99 ms": round(after.lagP99 * 1000 - PROM_LOOP_RESOLUTION_MS),
      errors: errors.length,
      load: os.loadavg()[0]!.toFixed(1),
    };
  }
  server.stop();
  await new Promise((r) => setTimeout(r, 1_500));
  return { rows, rss };
}

const levels = [...new Set([connections, 8, 4])].sort((a, b) => b - a);
const without = await measure("catalogue + 3 built-ins", [], levels);
const withPlugins = await measure("with plugins", ["--plugins", pluginDir], levels);
console.table({ ...without.rows, ...withPlugins.rows });
console.log(
  // The difference holds the workers' own isolates and the pages in flight, not only the plugins:
  // what one plugin costs is measured below, in this process, plugin by plugin.
  `server RSS (max while searching): ${Math.round(without.rss / 1048576)} MB without plugins, ${Math.round(withPlugins.rss / 1048576)} MB with ${pluginCount} loaded on ${process.env.PLUGIN_WORKERS ?? 2} sandbox workers (+${Math.round((withPlugins.rss - without.rss) / 1048576)} MB: the workers' isolates, the plugins and the pages being parsed)`,
);

// Sandbox cost per call on a 100 KB page, in this process: an instant fixture, one plugin.
const instant = await startFixtureSite();
instant.route("/search", html(bigPage(99)));
const sandbox = new PluginSandbox({
  fetch: async (_i, request) => {
    const res = await fetch(request.url);
    return { meta: { status: res.status, url: res.url, headers: Object.fromEntries(res.headers) }, text: await res.text() };
  },
});
const rssBefore = process.memoryUsage().rss;
await sandbox.load("cost", benchPlugin(99, instant.url));
await sandbox.call("cost", "search", ["夜曲", 1, "music"]);
const rssOne = process.memoryUsage().rss;
for (let i = 1; i < pluginCount; i++) {
  await sandbox.load(`more${i}`, benchPlugin(99, instant.url));
  await sandbox.call(`more${i}`, "search", ["夜曲", 1, "music"]);
}
const rssAll = process.memoryUsage().rss;
console.log(
  `this process's RSS: +${Math.round((rssOne - rssBefore) / 1048576)} MB for the sandbox's worker thread with its first plugin, then +${round((rssAll - rssOne) / 1048576 / Math.max(1, pluginCount - 1))} MB for each further plugin loaded and called (budget ≤ 32 MB a plugin)`,
);
const fetchOnly: number[] = [];
for (let i = 0; i < 50; i++) {
  const t = performance.now();
  await (await fetch(`${instant.url}/search?key=x`)).text();
  fetchOnly.push(performance.now() - t);
}
const calls: number[] = [];
for (let i = 0; i < 30; i++) await sandbox.call("cost", "search", ["夜曲", 1, "music"]);
for (let i = 0; i < 300; i++) {
  const t = performance.now();
  await sandbox.call("cost", "search", ["夜曲", 1, "music"]);
  calls.push(performance.now() - t);
}
const heap = await sandbox.memory();
console.log(
  `sandbox call on a ${Math.round(Buffer.byteLength(bigPage(99)) / 1024)} KB page (fetch + cheerio parse + 20 items): p50 ${round(percentile(calls, 50))} ms, p95 ${round(percentile(calls, 95))} ms, p99 ${round(percentile(calls, 99))} ms (budget p95 ≤ 50); the bare fetch alone p95 ${round(percentile(fetchOnly, 95))} ms; the plugin's QuickJS heap ${round(heap.cost! / 1048576)} MB`,
);
await sandbox.close();
for (const t of [...Object.values(builtins), ...pluginSites]) await t.site.close();
await instant.close();
process.exit(0);
