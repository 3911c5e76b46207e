/**
 * Kept pages under load (issue 13; budget: each page >= 50% of the req/s of bare Fastify
 * sending the same gzip bytes, p99 < 50 ms warm, cold p99 < 300 ms):
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/djbench DATA_DIR=/tmp/x npx tsx bench/pages.ts
 *   DATA_DIR=/tmp/my-pglite-copy npx tsx bench/pages.ts [--duration 10] [--connections 50] [--suites-sample 200] [--sort-pages 10]
 *
 * Forks bench/serve.ts --web as `npm start` runs it (serve's Node flags, logging on into
 * DATA_DIR/server-pages.log: the real app with the production web build on the seeded
 * database) and bench/bare-pages.ts (bare Fastify sending, per path, the gzip bytes fetched once
 * from the app), and runs wrk (or autocannon) in a process of its own (wrk-client.ts,
 * load-client.ts) against both, page after page: `/`, `/site/{id}.html` (random ids of a sample)
 * twice, as a returning visitor (the signed `vid` cookie a first answer gave, as a browser sends
 * it on every answer after its first) and without a cookie (a crawler, or a new visitor: given
 * the cookie, counting nothing; views come from the page's beacon, ADR 0053), `/sort/{diyname}?page=N`
 * (every category, random page 1-N), `/login`, a 404 (random unknown paths: one kept page for
 * all). Every request takes gzip and comes from another client address (X-Forwarded-For, as
 * behind a proxy; the server trusts loopback): a cookie-less suite page is a new visitor each time.
 * App and bare alternate in 3 short rounds per page, so the shared machine's load drifts over
 * both alike; before a page's runs each of its set is asked once (warm).
 *
 * Cold: 50 requests at once (the same page, or 50 different pages of the set), right after the
 * start and right after a change event (a category rename through the admin API, which drops
 * every kept page): the p99 (≈ the slowest) of those first requests.
 *
 * After the start's bursts, one more (not part of the table's runs): 50 different suite pages
 * at their linked address `/sutie/{id}.html`, drawn from the charts' `--most-played` (200) best
 * items, which the background pre-render (ADR 0038) renders after start; the sets above draw
 * random ids no pre-render could guess. `--cold-wait S` waits S seconds after the server
 * answers before the start's bursts (default 0: right after it); `--cold-only` stops after them.
 * `--profile dir`: the server (and bare Fastify, as bare.cpuprofile) run with `--cpu-prof` and write their profiles there on exit.
 */
import { fork } from "node:child_process";
import { createServer, type IncomingHttpHeaders, request } from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { benchClientAddress, startBenchServer } from "./bench-server.js";
import { loadClient, type LoadResult } from "./load-client.js";
import { processesMs, threadsMs } from "./proc-cpu.js";
import { runWithWrk, wrkAvailable } from "./wrk-client.js";

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "50" },
    suites: { type: "string", default: "100000" },
    plays: { type: "string", default: "1000000" },
    "suites-sample": { type: "string", default: "200" },
    "sort-pages": { type: "string", default: "10" },
    only: { type: "string" },
    "most-played": { type: "string", default: "200" },
    "cold-wait": { type: "string", default: "0" },
    "cold-only": { type: "boolean", default: false },
    // The server runs with --cpu-prof and writes its profile into this directory on exit.
    profile: { type: "string" },
    // wrk (C; Debian's wrk package) when installed: autocannon saturates its core first on small pages.
    client: { type: "string" },
    // "same": bare Fastify sends the app's headers too (all but date and length), so both send
    // the same bytes; "minimal": only type and encoding (the reference of the runs before 11-28, fifth).
    "bare-headers": { type: "string", default: "same" },
    // More Node/V8 flags for the app's server only, space-separated (e.g. "--trace-gc").
    "server-flags": { type: "string", default: "" },
  },
});
const connections = Number(values.connections);
/** App and bare runs of a page alternate this many times (`duration` split between them). */
const ROUNDS = 3;
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
const ENCODING = "gzip";

// As `npm start` runs it: serve's Node flags and environment, logging on (into DATA_DIR/server-pages.log).
const server = await startBenchServer(["--suites", values.suites, "--plays", values.plays, "--web", "--admin", "--log"], {
  asServe: true,
  stdoutFile: path.join(process.env.DATA_DIR ?? os.tmpdir(), "server-pages.log"),
  env: values.profile ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(values.profile)}` } : {},
  execArgv: values["server-flags"].split(/\s+/).filter(Boolean),
});
const { base, target } = server;
const sortPages = Number(values["sort-pages"]);

interface PageSet {
  name: string;
  /** Every path of the set (asked once before the warm run; their bytes go to the bare server). */
  all: string[];
  /** Asked as a returning visitor: with the signed `vid` cookie a first answer gave (visitorCookie). */
  returning?: boolean;
}
const suites = target.ids.slice(0, Number(values["suites-sample"])).map((id) => `/site/${id}.html`);
const sorts = target.categories.flatMap((c) => Array.from({ length: Math.min(c.pages, sortPages) }, (_, i) => `/sort/${c.diyname}?page=${i + 1}`));
const suiteApi = target.ids.slice(0, Number(values["suites-sample"])).map((id) => `/api/forntend/getmusicinfo?id=${id}`);
const missing = Array.from({ length: 500 }, (_, i) => `/no-such-page-${i}`);
const sets: PageSet[] = [
  { name: "/", all: ["/"] },
  // A browser's every answer after its first carries the cookie; a crawler's none (served by Fastify's path, ADR 0069).
  { name: `/site/{id}.html (${suites.length} ids), returning visitor`, all: suites, returning: true },
  { name: `/site/{id}.html (${suites.length} ids), no cookie`, all: suites },
  { name: `/sort/{diyname}?page=1-${sortPages} (${sorts.length} pages)`, all: sorts },
  { name: "/login", all: ["/login"] },
  { name: "404 (random unknown paths)", all: missing },
  // Not a page: the suite's API answer, whose per-request work (the visitor cookie) the suite page shares.
  { name: "getmusicinfo API (same ids)", all: suiteApi },
].filter((s) => !values.only || s.name.startsWith(values.only));

/** Cold after start only: the pages people open first (chart entries link to /sutie/{id}.html). */
const mostPlayed: PageSet = (() => {
  const all = target.mostPlayed.slice(0, Number(values["most-played"])).map((id) => `/sutie/${id}.html`);
  return { name: `/sutie/{id}.html (${all.length} most played)`, all };
})();

/**
 * The `vid` cookie a new visitor's first answer gave (`name=value`), sent by the returning-visitor
 * sets: asked of the suite API, which renders no page before the cold bursts.
 */
const visitorCookie = await (async () => {
  const res = await fetch(base + suiteApi[0], { headers: { "accept-encoding": ENCODING, "x-forwarded-for": benchClientAddress() } });
  await res.arrayBuffer();
  const cookie = res.headers.get("set-cookie")?.split(";")[0];
  if (!cookie?.startsWith("vid=")) throw new Error(`no visitor cookie from ${suiteApi[0]} (${res.status})`);
  return cookie;
})();
const cookieOf = (set?: PageSet): Record<string, string> => (set?.returning ? { cookie: visitorCookie } : {});
const headers = (set?: PageSet) => ({ "accept-encoding": ENCODING, "x-forwarded-for": benchClientAddress(), ...cookieOf(set) });

/** The load client runs in a process of its own (load-client.ts), for the app and the bare reference alike. */
const client = loadClient();
const clientName = values.client ?? (wrkAvailable() ? "wrk" : "autocannon");
if (clientName === "autocannon" && !values.client) console.log("wrk is not installed (apt-get install wrk): autocannon drives the load, and saturates its core on small pages");
const run = (url: string, set: PageSet, duration: number) => {
  const job = { url, paths: set.all, connections, duration, headers: { "accept-encoding": ENCODING, ...cookieOf(set) } };
  return clientName === "wrk" ? runWithWrk(job) : client.run(job);
};

/**
 * A run with the server's own CPU beside it: all its threads (/proc stat) and its main thread
 * (schedstat). When the client's core is saturated, req/s tells the client's pace; the CPU a
 * request costs the server still tells which server is cheaper (ADR 0067, bench/README.md).
 */
async function runMeasured(url: string, pid: number, set: PageSet, duration: number): Promise<LoadResult & { serverMs: number; mainMs: number }> {
  const [cpu0, main0] = [processesMs([pid]), threadsMs(pid).main];
  const result = await run(url, set, duration);
  return { ...result, serverMs: processesMs([pid]) - cpu0, mainMs: threadsMs(pid).main - main0 };
}

/** `connections` requests at once (of one page, or as many different pages of the set): their p99 and slowest, ms. */
async function burst(set: PageSet): Promise<string> {
  const paths = set.all.length === 1 ? Array(connections).fill(set.all[0]) : [...set.all].sort(() => Math.random() - 0.5).slice(0, connections);
  const times = await Promise.all(
    paths.map(async (path: string) => {
      const started = performance.now();
      const res = await fetch(base + path, { headers: headers(set) });
      await res.arrayBuffer();
      if (res.status >= 500) throw new Error(`${path}: ${res.status}`);
      return performance.now() - started;
    }),
  );
  times.sort((a, b) => a - b);
  return `${Math.round(times[Math.ceil(times.length * 0.99) - 1]!)} (max ${Math.round(times.at(-1)!)}, n ${times.length})`;
}

/**
 * What the app sent for a path, as the bare server sends it again: body (base64), status, type,
 * encoding, and its other headers (`--bare-headers same`; none with `minimal`).
 */
type SentAnswer = [string, number, string, string | undefined, Record<string, string>];

/**
 * Headers Node writes for each answer itself, or that the bare server sets on its own: not copied.
 * The request id and a new visitor's Set-Cookie are copied: the bare server sends the first
 * answer's again (the same bytes; the app makes them per answer, which is what is measured).
 */
const NOT_COPIED_HEADERS = new Set(["date", "connection", "keep-alive", "content-length", "transfer-encoding", "content-type", "content-encoding"]);
if (!["same", "minimal"].includes(values["bare-headers"])) throw new Error("--bare-headers: same or minimal");

function staticHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  if (values["bare-headers"] === "minimal") return {};
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !NOT_COPIED_HEADERS.has(name)) kept[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return kept;
}

/** Asks for every path once, 8 at a time; keeps the bytes the app sent (for the bare server). */
async function askEach(set: PageSet, bytes: Map<string, SentAnswer>) {
  const paths = set.all;
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const path = paths[next++]!;
      bytes.set(path, await rawAnswer(path, set));
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

/**
 * The app's bytes of a path, undecoded (node:http, since fetch decodes): gzip, or as they are
 * where the app does not compress (an API answer under the compression threshold).
 */
async function rawAnswer(path: string, set: PageSet): Promise<SentAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(base + path, { headers: headers(set) }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const encoding = res.headers["content-encoding"];
        if (encoding !== undefined && encoding !== "gzip") reject(new Error(`${path}: sent as ${encoding}`));
        else resolve([Buffer.concat(chunks).toString("base64"), res.statusCode ?? 0, res.headers["content-type"] ?? "text/html; charset=utf-8", encoding, staticHeaders(res.headers)]);
      });
    });
    req.on("error", reject);
    req.end();
  });
}

let categoryId = 0;
let renamed = false;
/** A change event: a category's name changed through the admin API (every kept page shows the navigation). */
async function change() {
  const auth = { authorization: `Bearer ${target.adminToken}`, "content-type": "application/json" };
  if (!categoryId) {
    const table = (await (await fetch(`${base}/api/pandaadmin/category/index?limit=1`, { headers: auth })).json()) as { rows: { id: number; name: string }[] };
    categoryId = table.rows[0]!.id;
  }
  const row = (await (await fetch(`${base}/api/pandaadmin/category/index?limit=100`, { headers: auth })).json()) as { rows: { id: number; name: string }[] };
  const name = row.rows.find((r) => r.id === categoryId)!.name;
  renamed = !renamed;
  const res = await fetch(`${base}/api/pandaadmin/category/${categoryId}`, {
    method: "PUT",
    headers: auth,
    body: JSON.stringify({ name: renamed ? `${name}·` : name.replace(/·$/, "") }),
  });
  if (!res.ok) throw new Error(`rename: ${res.status} ${await res.text()}`);
}

/**
 * This process's first `connections` requests at once, to a server of its own: the bursts then
 * measure the app's cold start, not this client's (fetch loads and compiles its HTTP client on
 * first use, and 50 new connections are made here as well).
 */
async function warmClient() {
  const own = createServer((_req, res) => res.end("ok")).listen(0, "127.0.0.1");
  await new Promise((resolve) => own.once("listening", resolve));
  const { port } = own.address() as { port: number };
  await Promise.all(Array.from({ length: connections }, () => fetch(`http://127.0.0.1:${port}/`, { headers: headers() }).then((r) => r.arrayBuffer())));
  own.close();
}

/** Thrown to end the run after the start's bursts (`--cold-only`). */
const COLD_ONLY = Symbol("cold only");
// With --profile, bare Fastify's profile goes beside the app's (its writes cost what the app's should).
const bareProfile = values.profile ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(values.profile)}`, "--cpu-prof-name=bare.cpuprofile"] : [];
const bare = fork(fileURLToPath(new URL("./bare-pages.ts", import.meta.url)), [], { execArgv: ["--import", "tsx", ...bareProfile], stdio: "inherit" });
const rows: Record<string, string | number>[] = [];
try {
  console.log(`engine ${target.engine}; load ${os.loadavg()[0].toFixed(2)} at start (${os.cpus().length} cores)`);
  if (Number(values["cold-wait"]) > 0) await new Promise((resolve) => setTimeout(resolve, Number(values["cold-wait"]) * 1000));
  await warmClient();
  const cold = new Map<string, { start: string; change?: string }>();
  for (const set of sets) cold.set(set.name, { start: await burst(set) });
  const mostPlayedStart = mostPlayed.all.length > 0 ? await burst(mostPlayed) : "none (no charts)";
  console.table([...[...cold].map(([page, { start }]) => ({ page, "cold p99 after start": start })), { page: mostPlayed.name, "cold p99 after start": mostPlayedStart }]);
  console.log(`cold after start: ${connections} requests at once per row, ${values["cold-wait"]} s after the server answered; load ${os.loadavg()[0].toFixed(2)} after them`);
  if (values["cold-only"]) throw COLD_ONLY;

  const bytes = new Map<string, SentAnswer>();
  for (const set of sets) {
    const started = performance.now();
    await askEach(set, bytes);
    console.log(`${set.name}: asked each of ${set.all.length} once in ${Math.round(performance.now() - started)} ms`);
  }
  bare.send({ pages: [...bytes].map(([path, answer]) => [path, ...answer]) });
  const barePort = await new Promise<number>((resolve) => bare.once("message", (m) => resolve((m as { port: number }).port)));
  const bareBase = `http://127.0.0.1:${barePort}`;

  for (const set of sets) {
    const sentKb = (Buffer.from(bytes.get(set.all[0]!)![0], "base64").length / 1024).toFixed(1);
    const bareHeaderBytes = Object.entries(bytes.get(set.all[0]!)![4]).reduce((sum, [name, value]) => sum + name.length + Buffer.byteLength(value) + 4, 0);
    // The previous set's change event dropped every kept page: the warm run starts warm.
    await askEach(set, new Map());
    await run(base, set, 2); // JIT, connections
    await run(bareBase, set, 2);
    const load = os.loadavg()[0].toFixed(2);
    // App and bare alternate in short rounds, so the shared machine's load drifts over both alike.
    const [app, ref] = [[] as Awaited<ReturnType<typeof runMeasured>>[], [] as Awaited<ReturnType<typeof runMeasured>>[]];
    for (let round = 0; round < ROUNDS; round++) {
      app.push(await runMeasured(base, server.pid, set, Number(values.duration) / ROUNDS));
      ref.push(await runMeasured(bareBase, bare.pid!, set, Number(values.duration) / ROUNDS));
    }
    await change();
    cold.get(set.name)!.change = await burst(set);
    const [appRate, refRate] = [app, ref].map((results) => results.reduce((sum, r) => sum + r.total, 0) / Number(values.duration));
    // The client's share of a core while it drove bare Fastify: near 100 % it, not the server, set the pace.
    const clientCore = (results: LoadResult[]) => `${Math.round((100 * results.reduce((n, r) => n + r.clientCpuMs, 0)) / results.reduce((n, r) => n + r.wallMs, 0))}%`;
    const [appP99, refP99] = [app, ref].map((results) => median(results.map((r) => r.p99)));
    // The server's CPU per answer (all threads), µs, and its main thread's share of a core.
    const perRequest = (results: typeof app) => (1000 * results.reduce((n, r) => n + r.serverMs, 0)) / results.reduce((n, r) => n + r.total, 0);
    const mainCore = (results: typeof app) => `${Math.round((100 * results.reduce((n, r) => n + r.mainMs, 0)) / results.reduce((n, r) => n + r.wallMs, 0))}%`;
    const [appUs, refUs] = [perRequest(app), perRequest(ref)];
    rows.push({
      page: set.name,
      "sent KB": sentKb,
      "bare's copied header bytes": bareHeaderBytes,
      "app req/s": Math.round(appRate!),
      "app p50/p99": `${median(app.map((r) => r.p50))} / ${appP99}`,
      "bare req/s": Math.round(refRate!),
      "bare p50/p99": `${median(ref.map((r) => r.p50))} / ${refP99}`,
      ratio: `${Math.round((100 * appRate!) / refRate!)}%`,
      // Issue 23's budget: ≥ 60 % of bare, p99 ≤ 2 × bare + 5 ms.
      "p99 budget": `${2 * refP99! + 5}${appP99! <= 2 * refP99! + 5 ? "" : " ✗"}`,
      "client core (app/bare)": `${clientCore(app)} / ${clientCore(ref)}`,
      "server main core (app/bare)": `${mainCore(app)} / ${mainCore(ref)}`,
      // Bare's CPU per answer over the app's: the share of bare's rate the app would reach on a core of its own.
      "server µs/req (app/bare)": `${Math.round(appUs)} / ${Math.round(refUs)} (${Math.round((100 * refUs) / appUs)}%)`,
      "cold p99 start": cold.get(set.name)!.start,
      "cold p99 change": cold.get(set.name)!.change!,
      "non2xx/err": app.reduce((n, r) => n + r.non2xx - (set.name.startsWith("404") ? r.total : 0), 0) + "/" + app.reduce((n, r) => n + r.errors, 0),
      load,
    });
  }
  console.table(rows);
  console.log(`load client: ${clientName}; ${connections} connections, ${values.duration} s per server in ${ROUNDS} alternating rounds (req/s over all; p50/p99: median of the rounds); Accept-Encoding ${ENCODING}; load = 1-min load average before the runs (${os.cpus().length} cores)`);
} catch (err) {
  if (err !== COLD_ONLY) throw err;
} finally {
  client.close();
  bare.kill("SIGTERM");
  server.stop();
}
