/**
 * The streamed search in Chromium (issue 22, ADR 0050): the catalogue and four fixture sites
 * answering after 50, 300, 1000 and 3000 ms. Budgets: the first results paint within 200 ms of
 * the request, and each source's results within its own latency + 50 ms, with 16 searches at once.
 *
 *   npx tsx bench/search-stream.ts --arrivals poisson [--seconds 60] [--no-bare] [--ab-css CSS]   (the budget's load, ADR 0076)
 *   npx tsx bench/search-stream.ts [--rounds 3] [--stamps]                           (bursts: the worst case)
 *   common: [--page-css CSS] [--concurrent 16] [--pages 1] [--suites 240] [--via page|api] [--profile dir] [--trace file] [--client-nice 10] [--fetch-nice -10]
 *
 * Two loads (ADR 0076). `--arrivals poisson`: `concurrent` searches in flight on average, arriving
 * one by one at random (bench/search-steady.ts), the page searching again and again, every other
 * turn in the bare page (bench/search-pages.ts), the Chromium rows' reference. `--arrivals burst`
 * (default): rounds of `concurrent` searches started in the same millisecond.
 *
 * The server is the real app in its own process (bench/serve.ts built as `npm run build` builds the
 * server, run by plain Node with `npm run serve`'s flags and environment, the production web build, logging on as `npm start` logs, into a file), on
 * PGlite with the demo catalogue; each site is djuu's adapter on its own fixture site under its
 * own code (`serve.ts --djuu-sources`), with a 6 s timeout. The fixture sites (in a process of
 * their own, bench/fixture-sites.ts), the fetch clients (bench/stream-clients.ts, a process of their own) and Chromium run beside it. Each round starts `concurrent`
 * searches at the same moment: `pages` of them typed in Chromium pages (one browser) and sent
 * with Enter, the others streams fetched by the fetch clients; each round's table says when the
 * page's search left after the first fetched one (in the burst, not after it). Every search is a
 * new keyword (full pinyin drawn from the catalogue's search text: the catalogue finds it, and no kept answer serves it). Chromium times
 * are the page's `performance` marks (SearchPanel/SearchResults): `search-request` when the search
 * starts, `search-first-results` and `search-source:{code}` right after the frame that paints each
 * source's hits; fetch times are each `event: source`'s arrival.
 *
 * References, measured in the same run: each site's own time for the same search (its request's
 * arrival to its last byte), the catalogue alone (`channelid=local`, one search at a time), and
 * the page alone (its search with nothing else in flight, after the warm-up).
 * CPU from /proc in windows of each round (the server's main thread and its other threads, this
 * process, Chromium), and both processes' event-loop delay: which of them the time went to.
 * `--profile dir`: the server runs with `--cpu-prof` (NODE_OPTIONS) and writes its profile there on exit;
 * `--server-flags=--trace-gc`: more Node flags for the server alone. `--trace file`: Chromium's
 * trace of the measured part, and the page's main thread per search (bench/chromium-trace.ts).
 *
 * Scheduling: Linux shares the cores between sessions (autogroups) before processes. The server
 * runs in a session of its own, as `npm start` does; Playwright starts Chromium in another; this
 * process (Playwright's driver) is the third. `--client-nice` (default 10) lowers it and Chromium's, so that the server gets a
 * core when it needs one, as on a machine of its own, and the page the rest. The fixture sites
 * run in a fourth (`--sites-nice`, default -10) and the fetch clients in a fifth
 * (`--fetch-nice`, default -10), above the server: they stand for other machines, and take under
 * a tenth of a core each in a burst (ADR 0074).
 */
import { mkdtemp, readFile } from "node:fs/promises";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { hydrated, launchBrowser } from "../e2e/browser.js";
import { ensureWebBuild } from "../e2e/web-server.js";
import { benchClientAddress, startBenchServer } from "./bench-server.js";
import { startFixtureSites, startStreamClients } from "./search-stream-peers.js";
import { p50p95, quantile } from "./quantile.js";
import { resultsTable } from "./search-results-table.js";
import { pathToTheSites, type SearchStamps } from "./search-stamps.js";
import { aloneLine, roundRows, type RoundTimes } from "./search-rounds.js";
import { descendants } from "./proc-cpu.js";
import { accountRounds, startTrace } from "./chromium-trace.js";
import { runSteady } from "./search-steady.js";
import { bareSearch, openBarePage, submitAndWait, typeKeyword, type Marks } from "./search-pages.js";
import { addRoundWindows, cpuSampler, cpuTable, WINDOWS, type Snap } from "./search-cpu.js";

const { values } = parseArgs({
  allowNegative: true,
  options: {
    rounds: { type: "string", default: "3" },
    concurrent: { type: "string", default: "16" },
    // How many of the concurrent searches are Chromium pages (the rest: streams fetched by bench/stream-clients.ts).
    pages: { type: "string", default: "1" },
    suites: { type: "string", default: "240" },
    profile: { type: "string" },
    via: { type: "string", default: "page" },
    // More Node flags for the server only (e.g. --server-flags=--trace-gc: its lines go to the server's log file).
    "server-flags": { type: "string", default: "" },
    // Linux autogroup nice of the load's sessions (this process: the fetch clients;
    // Chromium's), the server's own session staying at 0: the server's cores are first its own,
    // as on a machine of its own. 0 = the three sessions share the two cores alike.
    "client-nice": { type: "string", default: "10" },
    // The fetch clients' session (bench/stream-clients.ts): they stand for visitors' machines, as the
    // fixture sites stand for the DJ sites' (ADR 0074, second amendment of 2026-11-29).
    "fetch-nice": { type: "string", default: "-10" },
    // Linux autogroup nice of the fixture sites' session: above the load and the server (they
    // stand for other machines; their timers must fire on time).
    "sites-nice": { type: "string", default: "-10" },
    // The server records when it read each stream and asked each site (bench/search-stamps.ts).
    stamps: { type: "boolean", default: false },
    // Chromium's trace of the measured rounds into this file, and the page's main thread per round (bench/chromium-trace.ts).
    trace: { type: "string" },
    // burst: each round starts `concurrent` searches in the same millisecond (the worst case);
    // poisson: `concurrent` searches in flight on average, arriving one by one (bench/search-steady.ts).
    arrivals: { type: "string", default: "burst" },
    // --arrivals poisson: how long the steady load runs.
    seconds: { type: "string", default: "60" },
    // --arrivals poisson: every other search of the page's turn goes to a bare page (bench/search-pages.ts), the Chromium rows' reference (--no-bare: none).
    bare: { type: "boolean", default: true },
    // A style sheet added to the search page after it loads: a layout or paint change tried under the same load.
    "page-css": { type: "string" },
    // --arrivals poisson: a second search page with this style sheet added, taken in turn with
    // the page (and the bare page): a change tried against the page under the same load, same run.
    "ab-css": { type: "string" },
  },
});
const rounds = Number(values.rounds);
const concurrent = Number(values.concurrent);
const pageCount = Math.min(Number(values.pages), concurrent);
const LATENCIES = [50, 300, 1000, 3000];
/** The slowest site's code: once its results painted, a page's search is over. */
const LAST_SOURCE = `s${Math.max(...LATENCIES)}`;
const loadAvg = () => os.loadavg().map((l) => l.toFixed(2)).join(" ");
const loadAtStart = loadAvg();

const dataDir = (process.env.DATA_DIR ??= await mkdtemp(path.join(os.tmpdir(), "streambench-")));
ensureWebBuild();

// Four sites, each answering every search after its latency, in a process and a session of their
// own above the load (`--sites-nice`): they stand for other machines (bench/search-stream-peers.ts).
// `--via page` (default): djuu's adapter asks the app API first, the fixture answers it 404 at once,
// and the adapter reads the search page (the page parse, two requests a search). `--via api`: the
// fixture answers the app API (JSON) after the latency, as djuu's own API does (one request).
const viaApi = values.via === "api";
const { sites, process: sitesProcess } = await startFixtureSites(LATENCIES, viaApi);

const logFile = path.join(dataDir, "server.log");
const djuuSources = Object.fromEntries(sites.map((s) => [s.code, { baseUrl: s.url, timeoutMs: 6_000 }]));
const server = await startBenchServer(
  ["--suites", values.suites!, "--plays", "0", "--web", "--log", "--search-samples", "5000", "--djuu-sources", JSON.stringify(djuuSources), ...(values.stamps ? ["--stamps"] : [])],
  {
    asServe: true,
    stdoutFile: logFile,
    env: values.profile ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(values.profile)}` } : {},
    execArgv: values["server-flags"]!.split(" ").filter(Boolean),
    // As `npm start` runs in a terminal of its own: not a share of this process's session.
    ownSession: true,
  },
);
const url = server.base;

// The pages' reference: this many searches of theirs with nothing else in flight, after the warm-up.
const ALONE = 3;
// Full pinyin words of the catalogue: each found by the catalogue, none asked twice.
const texts = server.target.searchSamples;
const words = [...new Set(texts.flatMap((t) => t.split(" ").filter((w) => /^[a-z]{6,16}$/.test(w))))].sort(() => Math.random() - 0.5);
if (words.length < (rounds + 2) * concurrent + 20 + ALONE * pageCount) throw new Error(`only ${words.length} keywords`);
// The steady load's keywords: two, then three, four and five neighbouring pinyin words of an item's search text
// (found by the catalogue, none asked twice).
const runsOf = (n: number) =>
  texts.flatMap((t) => {
    const all = t.split(" ");
    return all.flatMap((_, i) => (i + n <= all.length && all.slice(i, i + n).every((w) => /^[a-z]{2,16}$/.test(w)) ? [all.slice(i, i + n).join(" ")] : []));
  });
const steadyKeywords = [...new Set([2, 3, 4, 5].flatMap((n) => runsOf(n).sort(() => Math.random() - 0.5)))];
const steady = values.arrivals === "poisson";
if (!steady && values.arrivals !== "burst") throw new Error("--arrivals is burst or poisson");
// Poisson arrivals at ~concurrent / 3 s, and the page's searches: a tenth to spare.
const steadyNeeds = Math.ceil(((Number(values.seconds) * (concurrent + 1)) / 3) * 1.1);
if (steady && steadyKeywords.length < steadyNeeds) throw new Error(`only ${steadyKeywords.length} keywords for ${values.seconds} s (${steadyNeeds} needed)`);

// The fetch clients: a process of their own, in a session of its own (bench/search-stream-peers.ts).
const { sentAt, headersWrittenAt, streamOne, process: clientsProcess } = await startStreamClients(url);

// The catalogue's own time through the same route, one search at a time.
let next = 0;
const localMs: number[] = [];
for (const word of words.slice(next, (next += 20))) localMs.push((await streamOne(word, "&channelid=local")).local!);

// Chromium's threads keep the machine's normal priority (as root they would take nice -8).
const browser = await launchBrowser({ unboosted: true });
const pages = await Promise.all(
  Array.from({ length: pageCount }, () => browser.newPage({ viewport: { width: 1366, height: 900 }, locale: "zh-CN", extraHTTPHeaders: { "x-forwarded-for": benchClientAddress() } })),
);
for (const p of pages) {
  await p.goto(`${url}/`);
  await hydrated(p);
  if (values["page-css"]) await p.addStyleTag({ content: values["page-css"] });
}
// The bare page: the steady load's reference (a tab of its own, idle in bursts, so not opened then).
const barePage = steady && values.bare ? await browser.newPage({ viewport: { width: 1366, height: 900 }, extraHTTPHeaders: { "x-forwarded-for": benchClientAddress() } }) : undefined;
if (barePage) await openBarePage(barePage, url);
const variantPage = steady && values["ab-css"] ? await browser.newPage({ viewport: { width: 1366, height: 900 }, locale: "zh-CN", extraHTTPHeaders: { "x-forwarded-for": benchClientAddress() } }) : undefined;
if (variantPage) {
  await variantPage.goto(`${url}/`);
  await hydrated(variantPage);
  await variantPage.addStyleTag({ content: values["ab-css"]! });
}

// This process's event-loop delay: a late fetch client would be counted as the server's time.
const benchLoop = monitorEventLoopDelay({ resolution: 10 }); // per window (reset by each snapshot)
const benchLoopAll = monitorEventLoopDelay({ resolution: 10 }); // all rounds
benchLoop.enable();
// CPU: the server's threads, this process, and Chromium (this process's other descendants).
const serverTree = new Set([server.pid, ...descendants(server.pid)]);
const chromium = descendants(process.pid).filter((pid) => !serverTree.has(pid) && pid !== sitesProcess.pid && pid !== clientsProcess.pid);
const chromiumPid = chromium.find((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("chromium"))!;
const clientNice = Number(values["client-nice"]);
/** A process's autogroup ("/autogroup-85 nice 0"), or "none" on a kernel without them. */
const autogroupOf = (pid: number) => (existsSync(`/proc/${pid}/autogroup`) ? readFileSync(`/proc/${pid}/autogroup`, "utf8").trim() : "none");
const fetchNice = Number(values["fetch-nice"]);
if (autogroupOf(process.pid) !== "none") {
  // This process's session is the terminal's: its nice is put back when the bench ends.
  const sessionNiceBefore = autogroupOf(process.pid).match(/nice (-?\d+)/)?.[1] ?? "0";
  process.on("exit", () => writeFileSync("/proc/self/autogroup", sessionNiceBefore));
  process.once("SIGINT", () => process.exit(130));
  for (const pid of [process.pid, chromiumPid]) writeFileSync(`/proc/${pid}/autogroup`, String(clientNice));
  writeFileSync(`/proc/${clientsProcess.pid}/autogroup`, String(fetchNice));
}
if (autogroupOf(sitesProcess.pid!) !== "none") writeFileSync(`/proc/${sitesProcess.pid}/autogroup`, values["sites-nice"]!);
const snap = cpuSampler({ server: server.pid, clients: clientsProcess.pid!, chromium, sites: sitesProcess.pid! }, benchLoop);

/** One round: every page and every fetched stream searches at once, each a new keyword. */
async function round(keywords: string[]) {
  const typed = keywords.slice(0, pageCount);
  await Promise.all(pages.map((p, i) => typeKeyword(p, typed[i]!)));
  const snaps = new Map<number, Snap>([[0, snap()]]);
  const timers = WINDOWS.flatMap(([, from, to]) => [from, to]).filter((t) => t > 0).map((t) => setTimeout(() => snaps.set(t, snap()), t));
  const [marks, streams] = await Promise.all([
    Promise.all(pages.map((p, i) => submitAndWait(p, typed[i]!, LAST_SOURCE))),
    Promise.all(keywords.slice(pageCount).map((k) => streamOne(k))),
  ]);
  // The last window closes before the round ends (its burst's CPU is counted whole).
  const lastWindowEnd = WINDOWS.at(-1)![2];
  await new Promise((r) => setTimeout(r, Math.max(0, snaps.get(0)!.at + lastWindowEnd + 20 - performance.now())));
  timers.forEach(clearTimeout);
  snaps.set(-1, snap());
  return { marks: marks as Marks[], streams, typed, fetched: keywords.slice(pageCount), snaps };
}

const take = () => words.slice(next, (next += concurrent));
// Warm-up: JIT, the pages' first search, and the sources' kept-alive sockets (the second round still opens some).
// Between the two, the page alone: what painting takes here with no other search in flight (the
// rows' reference). Before the second: the sources' sockets idle meanwhile time out, and a first
// measured round after it opened sixty anew (s50 ~70 ms late as a whole).
const alone: Marks[] = [];
for (let i = 0; i < 2; i++) {
  await round(take());
  await new Promise((r) => setTimeout(r, 500));
  for (let j = 0; i === 0 && j < ALONE; j++) {
    alone.push(...(await round(words.slice(next, (next += pageCount)))).marks);
    await new Promise((r) => setTimeout(r, 300));
  }
}

const metricsLag = async () => {
  const text = await (await fetch(`${url}/metrics`)).text();
  const read = (name: string) => Number(new RegExp(`^${name} ([0-9.e+-]+)$`, "mu").exec(text)?.[1] ?? NaN) * 1000;
  return { p99: read("nodejs_eventloop_lag_p99_seconds"), max: read("nodejs_eventloop_lag_max_seconds") };
};
await metricsLag(); // prom-client's histogram resets when read
if (values.stamps) await server.ask({ loop: true }, "loop"); // and the server's own monitor (it ran through the start)
benchLoopAll.enable();
if (values.trace) await startTrace(browser, pages[0]!);
const cpuAtStart = snap();

const samples: { marks: Marks; keyword: string }[] = [];
const streamed: { arrivals: Record<string, number>; keyword: string }[] = [];
const windows: Record<string, Record<string, number>[]> = {};
const perRound: RoundTimes[] = [];
const since = (m: Marks, name: string) => m[name]! - m["search-request"]!;
// From the fetch clients' call to their request's write: "from the wire" rows start after it.
const writeDelay = (keyword: string) => headersWrittenAt.get(keyword)! - sentAt.get(keyword)!;
let steadyLoad: Awaited<ReturnType<typeof runSteady>> | undefined;
if (steady) {
  let nextKeyword = 0;
  steadyLoad = await runSteady({
    seconds: Number(values.seconds),
    // The page (or the bare page) is in flight ~90% of the time: one more fetched stream on
    // average keeps `concurrent` or a little more in flight (the bench prints what it saw).
    inFlight: concurrent - pageCount + 1,
    searchMs: Math.max(...LATENCIES) + 30,
    nextKeyword: () => steadyKeywords[nextKeyword++] ?? (() => { throw new Error(`only ${steadyKeywords.length} keywords`); })(),
    streamOne,
    pageSearch: async (keyword) => (await typeKeyword(pages[0]!, keyword), submitAndWait(pages[0]!, keyword, LAST_SOURCE)),
    bareSearch: barePage ? (keyword) => bareSearch(barePage, keyword, LAST_SOURCE) : undefined,
    variantSearch: variantPage ? async (keyword) => (await typeKeyword(variantPage, keyword), submitAndWait(variantPage, keyword, LAST_SOURCE)) : undefined,
  });
  samples.push(...steadyLoad.samples);
  streamed.push(...steadyLoad.streamed);
}
for (let r = 0; r < (steady ? 0 : rounds); r++) {
  const result = await round(take());
  result.marks.forEach((marks, i) => samples.push({ marks, keyword: result.typed[i]! }));
  result.streams.forEach((arrivals, i) => streamed.push({ arrivals, keyword: result.fetched[i]! }));
  addRoundWindows(windows, result.snaps);
  // The server's own loop delay in the round, over IPC (--stamps): /metrics allocates ~1.5 MB an ask.
  const lag = values.stamps ? await server.ask<{ max: number }>({ loop: true }, "loop") : { max: NaN };
  const startedAt = Math.min(...result.fetched.map((k) => sentAt.get(k)!));
  perRound.push({
    startedAt,
    fromTheWire: result.streams.map((arrivals, i) => Object.fromEntries(Object.entries(arrivals).map(([code, at]) => [code, at - writeDelay(result.fetched[i]!)]))),
    painted: result.marks.map((m) => Object.fromEntries([["local", since(m, "search-first-results")], ...sites.map(({ code }) => [code, since(m, `search-source:${code}`)])])),
    // When each page's search left (its `search-request`, on its own clock) after the first fetched one.
    pageSentAfter: await Promise.all(pages.map(async (p, i) => (await p.evaluate(() => performance.timeOrigin)) + result.marks[i]!["search-request"]! - (performance.timeOrigin + startedAt))),
    serverLoopMax: lag.max - 10,
    benchLoopMax: windows[WINDOWS[0]![0]]!.at(-1)!.benchLoopMax!,
  });
  await new Promise((r) => setTimeout(r, 500));
}
const cpuAtEnd = snap();
const traced = values.trace ? await browser.stopTracing() : undefined;
if (traced) writeFileSync(values.trace!, traced);
benchLoop.disable();
benchLoopAll.disable();
const serverLag = await metricsLag();

const f = (n: number) => n.toFixed(1);
const pageRows = [["Chromium", samples], ["bare page (reference)", steadyLoad?.bareSamples ?? []], ["Chromium, --ab-css", steadyLoad?.variantSamples ?? []]] as const;
const rows = resultsTable({ sites, localMs, streamed, writeDelay, pages: pageRows });

// Where the added time goes, per site, for the fetched searches (ms after the stream was sent): its
// first request arrived, the request it answers after its latency arrived (the page,
// or the API with --via api), and the event's arrival after that answer's last byte left the site
// (the server's parse, merge and frame, and the wire).
const steps = Object.fromEntries(
  (streamed.length > 0 ? sites : []).map(({ code, firstAt, served, arrivedAt }) => {
    const asked = streamed.map((s) => arrivedAt.get(s.keyword)! - sentAt.get(s.keyword)!);
    return [
      code,
      {
        // The app API's search channel, or the page alone once that channel rests after its 404 (djuu.ts).
        "first request p50/p95": p50p95(streamed.map((s) => firstAt.get(s.keyword)! - sentAt.get(s.keyword)!)),
        [`${viaApi ? "API" : "page"} asked p50/p95`]: p50p95(asked),
        "event after its last byte p50/p95": p50p95(streamed.map((s, i) => s.arrivals[code]! - asked[i]! - served.get(s.keyword)!)),
      },
    ];
  }),
);

// Where a fetched stream's time went on its way to its sites (--stamps, bench/search-stamps.ts).
const stamps = values.stamps ? await server.ask<SearchStamps>({ stamps: true }, "stamps") : undefined;
const pathRows =
  stamps &&
  !steady &&
  pathToTheSites({
    rounds: Array.from({ length: rounds }, (_, r) => streamed.slice(r * (concurrent - pageCount), (r + 1) * (concurrent - pageCount)).map((x) => x.keyword)),
    sentAt,
    headersWrittenAt,
    stamps,
    receivedAt: (keyword) => Math.min(...sites.map((x) => x.firstAt.get(keyword)!)),
  });

const logText = existsSync(logFile) ? await readFile(logFile, "utf8") : "";
console.log(`sources: djuu's adapter through its ${viaApi ? "app API (one request a search)" : "search page (the app API answering 404 first)"}`);
const load = steady ? `${concurrent} searches in flight on average, arriving one by one (Poisson), for ${values.seconds} s` : `${concurrent} searches at once × ${rounds} rounds`;
console.log(`${load} (${pageCount} in Chromium; after two warm-up rounds of ${concurrent} at once); catalogue ${values.suites} suites on ${process.env.DATABASE_URL ? "PostgreSQL (DATABASE_URL)" : "PGlite"}; ${os.cpus().length} cores`);
console.log(`load average (1, 5, 15 min): ${loadAtStart} at the start, ${loadAvg()} at the end`);
console.log(`scheduling (Linux autogroups): the server's session ${autogroupOf(server.pid)}, this process's (Playwright's driver) ${autogroupOf(process.pid)}, the fetch clients' ${autogroupOf(clientsProcess.pid!)}, Chromium's ${autogroupOf(chromiumPid)}, the fixture sites' ${autogroupOf(sitesProcess.pid!)}`);
console.log(`reference: the catalogue alone (channelid=local, one at a time, 20 keywords): p50 ${f(quantile(localMs, 0.5))} ms, p95 ${f(quantile(localMs, 0.95))} ms; the sites: their own arrival-to-last-byte time for the same search ("added": the time beyond it, on the server, the wire, this process and the page)`);
console.log(`reference: the page alone (${alone.length} searches with nothing else in flight), painted p50 / max ms: ${aloneLine(alone, sites.map((x) => x.code))}`);
if (steadyLoad) {
  const seen = steadyLoad.inFlightSeen;
  const atPage = steadyLoad.samples.map((x) => x.inFlightAtRequest);
  console.log(
    `steady load (--arrivals poisson, ${values.seconds} s): searches in flight (the pages' included) every 50 ms p50 ${quantile(seen, 0.5)}, mean ${(seen.reduce((a, b) => a + b, 0) / seen.length).toFixed(1)}, min ${Math.min(...seen)}, max ${Math.max(...seen)}; when the page searched (its own included): p50 ${quantile(atPage, 0.5)}, min ${Math.min(...atPage)}, max ${Math.max(...atPage)}; ${streamed.length} fetched, ${samples.length} page and ${steadyLoad.bareSamples.length} bare page searches counted`,
  );
}
console.table(rows);
if (streamed.length > 0) {
  console.log("fetched searches, ms after the stream was sent: each site's first request, the one it answers after its latency; the event's arrival after that answer's last byte");
  console.table(steps);
}
if (!steady) {
  // The bursts' own tables: round by round, and CPU in windows of each round.
  console.log(`each round: the fetched streams' events from the wire and the page's marks (ms), and the worst event-loop delay of the server (the round) and of this process, Playwright's driver (its first 200 ms)`);
  console.table(roundRows(perRound, sites[0]!.code, stamps?.gc.map((p) => ({ ...p, at: p.at - performance.timeOrigin }))));
  console.log(
    "CPU in cores (CPU time / wall time) per window of each round: the server's main thread, the time it was runnable but waited for a core (as a fraction of the window), its other threads (GC, libuv), this process (Playwright's driver), the fetch clients, Chromium, the fixture sites",
  );
  console.table(cpuTable(windows));
}
if (pathRows) {
  console.log("a fetched stream's way to its sites, ms after it was sent (p50 / p95), and the server's time per search in a burst: --stamps");
  console.table(pathRows);
}
const wall = cpuAtEnd.at - cpuAtStart.at;
console.log(
  `all rounds (${(wall / 1000).toFixed(1)} s): server main ${((cpuAtEnd.serverMain - cpuAtStart.serverMain) / wall).toFixed(2)} cores (waited ${((cpuAtEnd.serverMainWaited - cpuAtStart.serverMainWaited) / wall).toFixed(2)}), other threads ${((cpuAtEnd.serverOthers - cpuAtStart.serverOthers) / wall).toFixed(2)}; bench ${((cpuAtEnd.bench - cpuAtStart.bench) / wall).toFixed(2)}; Chromium ${((cpuAtEnd.chromium - cpuAtStart.chromium) / wall).toFixed(2)}`,
);
console.log(
  `event-loop delay during the rounds: server (prom-client, minus its 10 ms tick) p99 ${f(serverLag.p99 - 10)} ms, max ${f(serverLag.max - 10)} ms; bench (the same measure) p99 ${f(benchLoopAll.percentile(99) / 1e6 - 10)} ms, max ${f(benchLoopAll.max / 1e6 - 10)} ms`,
);
console.log(`server log (as npm start writes it, JSON): ${logText.split("\n").filter((l) => l.startsWith("{")).length} lines, ${Math.round(logText.length / 1024)} KB in ${logFile}`);

if (traced) {
  console.log(`the page's main thread from its search to each paint mark, ms (Chromium's trace, ${values.trace})`);
  console.table(accountRounds(traced, sites.map((x) => x.code).slice(0, 1)));
}
await browser.close();
server.stop();
// The profile is written as the server exits.
for (let i = 0; i < 100 && existsSync(`/proc/${server.pid}`); i++) await new Promise((r) => setTimeout(r, 100));
sitesProcess.kill();
clientsProcess.kill();
process.exit(0);
