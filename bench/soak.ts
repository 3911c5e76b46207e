/**
 * Soak: the production server under 50 connections of random pages and APIs for ten minutes,
 * its memory sampled all along (issue 13: RSS may grow by at most 10% after the first minute;
 * idle RSS on the demo catalogue at most 350 MB).
 *
 *   npm run build && npx tsx bench/soak.ts [--minutes 10] [--connections 50] [--sample 10]
 *   DATABASE_URL=postgres://… npx tsx bench/soak.ts      (PostgreSQL; default PGlite)
 *
 * The server is started exactly as `npm run serve` starts it (the command and environment of
 * package.json's `serve` script, on build/node/main.js), on DATA_DIR (default a fresh
 * /tmp/djsoak-<pid>: the first start seeds the demo catalogue). Its idle RSS is read 20 s after
 * it answers; then the load runs while /proc/<pid>/status's VmRSS is read every `--sample`
 * seconds. Requests: home, category pages (random page numbers, newest or hot), suite pages
 * (random ids, some missing), searches (random keywords, some never seen before), charts
 * (getrank), and 404s, each from another client address (a new visitor, as in bench/api.ts).
 * `--root <checkout> --serve "<command>"` measures another checkout (say, an older commit) the
 * same way; the command must be the server process itself (`node --import tsx server/main.ts`,
 * not `tsx`, whose wrapper would be the process sampled).
 * Printed: the RSS series, the growth after the first minute against its budget, and req/s,
 * latency and errors per minute (a slowdown shows there), with the 1-min load average.
 */
import autocannon from "autocannon";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { parseServeScript } from "../scripts/cluster/stack.js";
import { benchClientAddress } from "./bench-server.js";

const { values } = parseArgs({
  options: {
    minutes: { type: "string", default: "10" },
    connections: { type: "string", default: "50" },
    sample: { type: "string", default: "10" },
    port: { type: "string", default: "3470" },
    "idle-wait": { type: "string", default: "20" },
    // Another checkout (e.g. an older commit, for a before/after) and its server command.
    root: { type: "string" },
    serve: { type: "string" },
  },
});

const root = path.resolve(values.root ?? path.join(import.meta.dirname, ".."));
const IDLE_BUDGET_MB = 350;
const GROWTH_BUDGET = 0.1;
const minutes = Number(values.minutes);
const port = Number(values.port);
const base = `http://127.0.0.1:${port}`;

/** CPU seconds the process has used (user + system), from /proc/<pid>/stat. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

async function startServer(dataDir: string): Promise<ChildProcess> {
  const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };
  const { env, command, args } = parseServeScript(values.serve ?? pkg.scripts.serve!);
  for (const built of ["build/server/index.js", ...args.filter((a) => a.startsWith("build/"))]) {
    if (!existsSync(path.join(root, built))) throw new Error(`${built} missing: run \`npm run build\` first`);
  }
  const child = spawn(command, args, {
    cwd: root,
    env: {
      ...process.env,
      ...env,
      DATA_DIR: dataDir,
      HOST: "127.0.0.1",
      PORT: String(port),
      LOG_LEVEL: "warn",
      // The soak measures our server: the real DJ sites are not asked (ADR 0047).
      EXTERNAL_SOURCES: "none",
      // Each request comes as from another address (X-Forwarded-For from loopback).
      TRUST_PROXY: "127.0.0.1",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) return child;
    if (Date.now() > deadline) throw new Error("server did not answer in 3 minutes");
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Every page the sitemaps list (category and suite pages), so the bench fits any catalogue. */
async function sitemapPaths(): Promise<{ categories: string[]; suites: number[] }> {
  const locs = async (p: string) => [...(await (await fetch(base + p)).text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
  const paths = (await Promise.all((await locs("/sitemap.xml")).map(locs))).flat();
  const categories = paths.filter((p) => p.startsWith("/sort/"));
  const suites = paths.map((p) => /^\/(?:site|sutie)\/(\d+)\.html$/.exec(p)?.[1]).filter((id) => id !== undefined).map(Number);
  if (categories.length === 0 || suites.length === 0) throw new Error(`sitemaps list ${categories.length} categories, ${suites.length} suites`);
  return { categories, suites };
}

const KEYWORDS = ["夜曲", "DJ", "舞曲", "串烧", "慢摇", "电音", "車載", "中文", "remix", "house", "抖音", "伤感", "酒吧", "2026"];
const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]!;
const int = (max: number) => 1 + Math.floor(Math.random() * max);

function requestMix(categories: string[], suites: number[]): { weight: number; path: () => string }[] {
  const maxId = Math.max(...suites);
  return [
    { weight: 10, path: () => "/" },
    { weight: 25, path: () => `${pick(categories)}?page=${int(30)}${Math.random() < 0.3 ? "&filter=hot" : ""}` },
    // One in ten asks an id past the last (a 404 page).
    { weight: 30, path: () => `/site/${Math.random() < 0.9 ? pick(suites) : maxId + int(1000)}.html` },
    // Half the keywords were asked before (kept answers), half are new.
    { weight: 15, path: () => `/api/forntend/indexsearch?keyword=${encodeURIComponent(Math.random() < 0.5 ? pick(KEYWORDS) : `${pick(KEYWORDS)}${int(100_000)}`)}` },
    { weight: 10, path: () => `/api/forntend/getrank?site=local&type=${pick(["mix", "single"])}&period=${pick(["week", "month", "quarter"])}` },
    { weight: 5, path: () => `/api/forntend/getsort?diyname=${pick(categories).slice(6)}&page=${int(30)}` },
    { weight: 5, path: () => `/no-such-page-${int(1_000_000)}` },
  ];
}

function picker(mix: { weight: number; path: () => string }[]) {
  const total = mix.reduce((n, m) => n + m.weight, 0);
  return () => {
    let r = Math.random() * total;
    for (const m of mix) if ((r -= m.weight) < 0) return m.path();
    return mix[0]!.path();
  };
}

interface Minute {
  requests: number;
  latencies: number[];
  status4xx: number;
  status5xx: number;
  load: number;
}

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!);

async function main() {
  const dataDir = process.env.DATA_DIR ?? `/tmp/djsoak-${process.pid}`;
  const ownDir = !process.env.DATA_DIR;
  await mkdir(dataDir, { recursive: true });
  const started = performance.now();
  const server = await startServer(dataDir);
  const pid = server.pid!;
  try {
    console.log(`server pid ${pid} answered in ${Math.round(performance.now() - started)} ms (${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"}, DATA_DIR ${dataDir})`);
    const { categories, suites } = await sitemapPaths();
    console.log(`${categories.length} category pages, ${suites.length} suites in the sitemaps`);
    await new Promise((r) => setTimeout(r, Number(values["idle-wait"]) * 1000));
    const idle = rssMb(pid);
    console.log(`idle RSS ${idle.toFixed(0)} MB (budget ${IDLE_BUDGET_MB} MB): ${idle <= IDLE_BUDGET_MB ? "met" : "NOT met"}; load ${os.loadavg()[0].toFixed(2)}`);

    const samples: { t: number; rss: number }[] = [{ t: 0, rss: idle }];
    const cpuBefore = cpuSeconds(pid);
    const perMinute: Minute[] = [];
    const t0 = Date.now();
    const minuteOf = () => Math.min(minutes - 1, Math.floor((Date.now() - t0) / 60_000));
    const sampler = setInterval(() => samples.push({ t: Math.round((Date.now() - t0) / 1000), rss: rssMb(pid) }), Number(values.sample) * 1000);
    const next = picker(requestMix(categories, suites));
    let done!: (r: autocannon.Result) => void;
    let failed!: (err: unknown) => void;
    const finished = new Promise<autocannon.Result>((resolve, reject) => ((done = resolve), (failed = reject)));
    const run = autocannon(
      {
        url: base,
        connections: Number(values.connections),
        duration: minutes * 60,
        headers: { "accept-encoding": "gzip, deflate, br" },
        requests: [{ setupRequest: (req) => ({ ...req, path: next(), headers: { ...req.headers, "x-forwarded-for": benchClientAddress() } }) }],
      },
      (err, r) => (err ? failed(err) : done(r)),
    );
    run.on("response", (_client, statusCode, _bytes, responseTime) => {
      const m = (perMinute[minuteOf()] ??= { requests: 0, latencies: [], status4xx: 0, status5xx: 0, load: os.loadavg()[0] });
      m.requests++;
      m.latencies.push(responseTime);
      if (statusCode >= 500) m.status5xx++;
      else if (statusCode >= 400) m.status4xx++;
    });
    const result = await finished;
    clearInterval(sampler);
    const cpuPerRequest = ((cpuSeconds(pid) - cpuBefore) * 1e6) / result.requests.total;
    samples.push({ t: Math.round((Date.now() - t0) / 1000), rss: rssMb(pid) });

    console.log("\nRSS (MB) every", values.sample, "s:");
    console.log(samples.map((s) => `${s.t}s ${s.rss.toFixed(0)}`).join("  "));
    const atMinute = samples.filter((s) => s.t >= 60)[0] ?? samples.at(-1)!;
    const after = samples.filter((s) => s.t >= atMinute.t);
    const last = samples.at(-1)!;
    const peak = Math.max(...after.map((s) => s.rss));
    const growth = (last.rss - atMinute.rss) / atMinute.rss;
    const peakGrowth = (peak - atMinute.rss) / atMinute.rss;
    console.table(
      perMinute.map((m, i) => {
        const sorted = m.latencies.sort((a, b) => a - b);
        return { minute: i + 1, "req/s": Math.round(m.requests / 60), "p50 ms": Math.round(percentile(sorted, 0.5)), "p99 ms": Math.round(percentile(sorted, 0.99)), "4xx": m.status4xx, "5xx": m.status5xx, load: m.load.toFixed(2) };
      }),
    );
    console.log(
      `RSS idle ${idle.toFixed(0)} MB, at ${atMinute.t} s ${atMinute.rss.toFixed(0)} MB, end ${last.rss.toFixed(0)} MB, peak after the first minute ${peak.toFixed(0)} MB`,
    );
    console.log(
      `growth after the first minute: end ${(growth * 100).toFixed(1)}%, peak ${(peakGrowth * 100).toFixed(1)}% (budget ${GROWTH_BUDGET * 100}%): ${peakGrowth <= GROWTH_BUDGET ? "met" : "NOT met"}`,
    );
    // Warm-up (kept answers filling, V8 sizing its heap) flattens; a leak keeps the same slope.
    const half = samples.filter((x) => x.t >= (minutes * 60) / 2)[0] ?? last;
    console.log(`second half (from ${half.t} s): ${(((last.rss - half.rss) / half.rss) * 100).toFixed(1)}%`);
    console.log(
      `${result.requests.total} requests, ${Math.round(result.requests.average)} req/s average, server CPU ${Math.round(cpuPerRequest)} µs a request (all its threads), errors ${result.errors}, timeouts ${result.timeouts}; ${values.connections} connections, ${os.cpus().length} cores, load now ${os.loadavg()[0].toFixed(2)}`,
    );
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    if (ownDir) await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
