/**
 * Logins beside the API load (issue 10: 20 logins a second must keep getmusicinfo's p99 within
 * 1.5x of its quiet value: argon2id hashing runs on libuv's thread pool, not the event loop).
 *
 *   DATA_DIR=/tmp/djbench-pglite npx tsx bench/login.ts [--suites 100000] [--plays 1000000]
 *     [--duration 10] [--connections 50] [--rate 20]
 *   DATABASE_URL=postgres://…/djbench DATA_DIR=/tmp/x npx tsx bench/login.ts
 *
 * Starts bench/serve.ts (as bench/api.ts does) with bench members, asks every sample suite once
 * (the warm state bench/api.ts measures), then runs autocannon on getmusicinfo twice: quiet,
 * and while `--rate` real logins a second (right password, real argon2id verification, a new
 * session and login record each, each from another client address) run beside it; `--rounds`
 * pairs of runs, alternating.
 */
import autocannon from "autocannon";
import os from "node:os";
import { parseArgs } from "node:util";
import { BENCH_MEMBER_PASSWORD, benchClientAddress, resultRow, startBenchServer } from "./bench-server.js";

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "50" },
    suites: { type: "string", default: "100000" },
    plays: { type: "string", default: "1000000" },
    rate: { type: "string", default: "20" },
    // Quiet and busy runs alternate, so a change in the machine's load shows instead of skewing one side.
    rounds: { type: "string", default: "2" },
    encoding: { type: "string", default: "gzip, deflate, br" },
    // getmusicinfo requests a second in all (0 = as fast as the connections go). A rate below
    // saturation measures what the logins do to latency itself, not only the CPU they take.
    "api-rate": { type: "string", default: "0" },
  },
});

const server = await startBenchServer(["--suites", values.suites, "--plays", values.plays, "--members", "40"]);
const { base, target } = server;
const suitePaths = target.ids.map((id) => `/api/forntend/getmusicinfo?id=${id}`);
const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)];

function getmusicinfo(duration: number) {
  return autocannon({
    url: base,
    connections: Number(values.connections),
    duration,
    ...(Number(values["api-rate"]) > 0 ? { overallRate: Number(values["api-rate"]) } : {}),
    headers: { "accept-encoding": values.encoding },
    requests: [{ setupRequest: (req) => ({ ...req, path: pick(suitePaths), headers: { ...req.headers, "x-forwarded-for": benchClientAddress() } }) }],
  });
}

/** Asks for every path once, 8 at a time (the warm state). */
async function askEach(paths: string[]) {
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const res = await fetch(base + paths[next++], { headers: { "accept-encoding": values.encoding, "x-forwarded-for": benchClientAddress() } });
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

/** Logs in `rate` times a second (open loop: a slow answer does not delay the next login). */
function loginLoad(rate: number) {
  const latencies: number[] = [];
  let failed = 0;
  let n = 0;
  const inFlight = new Set<Promise<void>>();
  const one = async () => {
    const account = target.members[n++ % target.members.length];
    const started = performance.now();
    try {
      const res = await fetch(`${base}/api/user/login`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": benchClientAddress() },
        body: JSON.stringify({ account, password: BENCH_MEMBER_PASSWORD }),
      });
      const body = (await res.json()) as { code: number; data?: { token?: string } };
      if (body.code === 1 && body.data?.token) latencies.push(performance.now() - started);
      else failed++;
    } catch {
      failed++;
    }
  };
  const timer = setInterval(() => {
    const p = one().finally(() => inFlight.delete(p));
    inFlight.add(p);
  }, 1000 / rate);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
      const sorted = latencies.sort((a, b) => a - b);
      const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN);
      return { ok: sorted.length, failed, p50: at(0.5), p99: at(0.99) };
    },
  };
}

try {
  const duration = Number(values.duration);
  const rate = Number(values.rate);
  console.log(`engine ${target.engine}; ${target.ids.length} sample suites; ${target.members.length} bench members`);
  await askEach(suitePaths);
  await getmusicinfo(2); // JIT, pools
  const rows: ReturnType<typeof resultRow>[] = [];
  const ratios: number[] = [];
  for (let round = 1; round <= Number(values.rounds); round++) {
    const quietLoad = os.loadavg()[0].toFixed(2);
    const quiet = await getmusicinfo(duration);
    rows.push(resultRow(`${round}: getmusicinfo, quiet`, quiet, quietLoad));

    const logins = loginLoad(rate);
    await new Promise((r) => setTimeout(r, 1000)); // the logins' own warm-up
    const busyLoad = os.loadavg()[0].toFixed(2);
    const busy = await getmusicinfo(duration);
    const stats = await logins.stop();
    rows.push(resultRow(`${round}: getmusicinfo, ${rate} logins/s beside`, busy, busyLoad));
    console.log(`round ${round} logins: ${stats.ok} ok, ${stats.failed} failed, p50 ${stats.p50} ms, p99 ${stats.p99} ms`);
    ratios.push(busy.latency.p99 / quiet.latency.p99);
  }
  console.table(rows);
  const median = [...ratios].sort((a, b) => a - b)[Math.floor((ratios.length - 1) / 2)];
  console.log(`p99 with logins / quiet, per round: ${ratios.map((r) => r.toFixed(2)).join(", ")}; median ${median.toFixed(2)} (budget <= 1.5)`);
  const pace = Number(values["api-rate"]) > 0 ? `${values["api-rate"]} req/s in all` : "closed loop";
  console.log(`${values.connections} connections (${pace}), ${duration} s each; load = 1-min load average before the run (${os.cpus().length} cores)`);
} finally {
  server.stop();
}
