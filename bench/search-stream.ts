/**
 * The streamed search in Chromium (issue 22, ADR 0050): the catalogue and four fixture sites
 * answering after 50, 300, 1000 and 3000 ms. Budgets: the first results paint within 200 ms of
 * the request, and each source's results within its own latency + 50 ms, with 16 searches at once.
 *
 *   npx tsx bench/search-stream.ts [--rounds 3] [--concurrent 16] [--pages 1] [--suites 240]
 *
 * The app is the production web build on PGlite (the e2e suite's server: demo catalogue, in this
 * process with the fixture sites); each site is djuu's adapter on its own fixture site, under its
 * own code, with a 6 s timeout. Each round starts `concurrent` searches at the same moment:
 * `pages` of them typed in Chromium pages (one browser), the others streams fetched by this
 * process (`--pages 1`: one visitor's browser beside 15 other searches, as visitors each have
 * their own machine; `--pages 16`: sixteen pages of one Chromium on this machine's cores). Every
 * search is a new keyword (full pinyin drawn from the catalogue's search text: the catalogue finds
 * it, 172Mix-style ASCII, and no kept answer serves it). Times are the page's `performance`
 * marks (SearchPanel/SearchResults): `search-request` when the search starts, `search-first-results`
 * and `search-source:{code}` in the frame after each source's hits were committed.
 */
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { hydrated, launchBrowser } from "../e2e/browser.js";
import { ensureWebBuild } from "../e2e/web-server.js";
import { seedDemoCatalogue } from "../server/db/seed/index.js";
import { queryRows } from "../server/db/sql.js";
import { prepareDemoMedia } from "../server/demo-media/prepare-demo-media.js";
import { createDjuuAdapter } from "../server/modules/sources/adapters/djuu.js";
import { SEARCH_ITEMS, searchPage } from "../server/modules/sources/adapters/djuu.fixtures.js";
import { createSourceFetcher } from "../server/modules/sources/fetch/client.js";
import type { SourceAdapterEntry } from "../server/modules/sources/source-provider.js";
import { html, startFixtureSite, withLatency, type FixtureSite } from "../server/testing/fixture-site.js";
import { createTestApp } from "../server/testing/test-app.js";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    concurrent: { type: "string", default: "16" },
    // How many of the concurrent searches are Chromium pages (the rest: streams fetched by this process).
    pages: { type: "string", default: "1" },
    suites: { type: "string", default: "240" },
  },
});
const rounds = Number(values.rounds);
const concurrent = Number(values.concurrent);
const pageCount = Math.min(Number(values.pages), concurrent);
const LATENCIES = [50, 300, 1000, 3000];
const FIRST_PAINT_BUDGET_MS = 200;
const SOURCE_BUDGET_MS = 50;

process.env.DATA_DIR ??= await mkdtemp(path.join(os.tmpdir(), "streambench-"));
ensureWebBuild();

// Four sites, each answering every search after its latency.
const sites: { code: string; latency: number; site: FixtureSite; close(): void }[] = [];
const entries: SourceAdapterEntry[] = [];
for (const latency of LATENCIES) {
  const code = `s${latency}`;
  const site = await startFixtureSite();
  site.route("/search", withLatency(latency, html(searchPage(SEARCH_ITEMS))));
  const fetcher = createSourceFetcher({
    source: code,
    allowedHosts: [site.host],
    allowAddresses: [site.host],
    userAgent: "DJSearchBot/1.0 (+http://bench/about)",
    logger: { warn: () => {}, info: () => {}, error: () => {}, debug: () => {} } as never,
    minIntervalMs: 0,
    concurrency: concurrent * 2,
    timeoutMs: 6_000,
  });
  entries.push({ code, name: `${latency}ms站`, homepage: site.url, timeoutMs: 6_000, adapter: createDjuuAdapter({ fetcher, baseUrl: site.url, apiBaseUrl: `${site.url}/app/v1` }) });
  sites.push({ code, latency, site, close: () => fetcher.close() });
}

// Each client its own address (X-Forwarded-For from loopback): the per-IP search limit is not what is measured.
const testApp = await createTestApp("pglite", { web: true, sourceAdapters: entries, env: { TRUST_PROXY: "loopback" } });
const media = await prepareDemoMedia(testApp.dataDir);
await seedDemoCatalogue(testApp.database, { media, suites: Number(values.suites), plays: 0, writes: testApp.app.services.writes });
const url = await testApp.app.listen({ port: 0, host: "127.0.0.1" });

// Full pinyin words of the catalogue: each found by the catalogue, none asked twice.
const texts = await queryRows<{ text: string }>(testApp.database.db, sql`select search_text as text from items where status = 'normal' and playtype = 'mp3'`);
const words = [...new Set(texts.flatMap((r) => r.text.split(" ").filter((w) => /^[a-z]{6,16}$/.test(w))))].sort(() => Math.random() - 0.5);
if (words.length < (rounds + 1) * concurrent) throw new Error(`only ${words.length} keywords`);

// The catalogue's own time: the local provider alone, as the stream's first event needs it.
const localMs: number[] = [];
for (const word of words.slice(0, 20)) {
  const started = performance.now();
  await testApp.app.services.search.search({ keyword: word, type: "mp3", channelid: "local" } as never);
  localMs.push(performance.now() - started);
}

/** One stream fetched by this process: each source's event's arrival after the request was sent. */
async function streamOne(keyword: string, i: number): Promise<Record<string, number>> {
  const started = performance.now();
  const res = await fetch(`${url}/api/forntend/indexsearch/stream?keyword=${encodeURIComponent(keyword)}&limit=5`, { headers: { "x-forwarded-for": `198.18.0.${1 + (i % 250)}` } });
  const arrivals: Record<string, number> = {};
  let text = "";
  for await (const chunk of res.body!.pipeThrough(new TextDecoderStream())) {
    text += chunk;
    for (const m of text.matchAll(/event: source\ndata: \{"source":"([^"]+)"/g)) arrivals[m[1]!] ??= performance.now() - started;
  }
  return arrivals;
}

const browser = await launchBrowser();
const pages = await Promise.all(
  Array.from({ length: pageCount }, (_, i) => browser.newPage({ viewport: { width: 1366, height: 900 }, locale: "zh-CN", extraHTTPHeaders: { "x-forwarded-for": `198.19.0.${i + 1}` } })),
);
for (const page of pages) {
  await page.goto(`${url}/`);
  await hydrated(page);
}

type Marks = Record<string, number>;
/** One round: every page and every fetched stream searches at once, each a new keyword. */
async function round(keywords: string[]): Promise<{ marks: Marks[]; streams: Record<string, number>[] }> {
  const typed = keywords.slice(0, pageCount);
  await Promise.all(pages.map((page, i) => page.getByLabel("搜索关键词").fill(typed[i]!)));
  const [marks, streams] = await Promise.all([
    (async () => {
      await Promise.all(pages.map((page) => page.getByRole("search").getByRole("button", { name: "搜索" }).click()));
      await Promise.all(pages.map((page, i) => page.getByText(`“${typed[i]}” 找到`).waitFor({ timeout: 15_000 })));
      // The last marks are set in the frame after the last commit.
      await Promise.all(pages.map((page) => page.waitForFunction(() => performance.getEntriesByName("search-source:s3000").length > 0)));
      return Promise.all(pages.map((page) => page.evaluate(() => Object.fromEntries(performance.getEntriesByType("mark").map((m) => [m.name, m.startTime])))));
    })(),
    Promise.all(keywords.slice(pageCount).map(streamOne)),
  ]);
  return { marks, streams };
}

let next = 0;
const take = () => words.slice(next, (next += concurrent));
await round(take()); // warm-up: JIT, sockets, the pages' first search

const samples: Marks[] = [];
const streamed: Record<string, number>[] = [];
for (let r = 0; r < rounds; r++) {
  const { marks, streams } = await round(take());
  samples.push(...marks);
  streamed.push(...streams);
}

const quantile = (list: number[], q: number) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.ceil(q * list.length) - 1)]!;
const f = (n: number) => n.toFixed(1);
const since = (m: Marks, name: string) => m[name]! - m["search-request"]!;
const rows: Record<string, string | number>[] = [];
const row = (what: string, ms: number[], budget: number) =>
  ms.length > 0 &&
  rows.push({ what, searches: ms.length, "p50 ms": f(quantile(ms, 0.5)), "p95 ms": f(quantile(ms, 0.95)), "max ms": f(Math.max(...ms)), budget: `≤ ${budget}`, met: Math.max(...ms) <= budget ? "yes" : quantile(ms, 0.95) <= budget ? "p95" : "no" });

row("fetch: 本站's event arrived", streamed.map((a) => a.local!), FIRST_PAINT_BUDGET_MS);
for (const { code, latency } of sites) row(`fetch: ${code}'s event arrived`, streamed.map((a) => a[code]!), latency + SOURCE_BUDGET_MS);
row("Chromium: first results painted (本站)", samples.map((m) => since(m, "search-first-results")), FIRST_PAINT_BUDGET_MS);
for (const { code, latency } of sites) row(`Chromium: ${code}'s results painted`, samples.map((m) => since(m, `search-source:${code}`)), latency + SOURCE_BUDGET_MS);
console.log(`${concurrent} searches at once (${pageCount} in Chromium) × ${rounds} rounds (after one warm-up round); catalogue ${values.suites} suites on PGlite; load ${os.loadavg()[0].toFixed(2)} (${os.cpus().length} cores)`);
console.log(`the catalogue alone (search service, 20 keywords, one at a time): p50 ${f(quantile(localMs, 0.5))} ms, max ${f(Math.max(...localMs))} ms`);
console.table(rows);

await browser.close();
await testApp.close();
for (const s of sites) {
  s.close();
  await s.site.close();
}
