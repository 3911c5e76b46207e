import type autocannon from "autocannon";
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { BenchTarget } from "./serve.js";

/** The password of serve.ts's `--members` (benchmember1…N). */
export const BENCH_MEMBER_PASSWORD = "bench-password-2026";

/**
 * Another client address per call (198.18.0.0/15, the range set aside for benchmarks), sent as
 * X-Forwarded-For to serve.ts, which trusts loopback as its proxy.
 */
export const benchClientAddress = () =>
  `198.${18 + Math.floor(Math.random() * 2)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;

export interface BenchServer {
  base: string;
  target: BenchTarget;
  stop(): void;
}

/** Forks bench/serve.ts with `args` and resolves once it listens, with what it serves. */
export async function startBenchServer(args: string[]): Promise<BenchServer> {
  const server = fork(fileURLToPath(new URL("./serve.ts", import.meta.url)), args, {
    execArgv: ["--import", "tsx"],
    // As `npm run serve` does: React and other libraries pick their production builds by it.
    env: { ...process.env, NODE_ENV: "production" },
    stdio: "inherit",
  });
  const target = await new Promise<BenchTarget>((resolve, reject) => {
    server.once("message", (m) => resolve(m as BenchTarget));
    server.once("exit", (code) => reject(new Error(`bench server exited (${code})`)));
  });
  return { base: `http://127.0.0.1:${target.port}`, target, stop: () => server.kill("SIGTERM") };
}

/** The options every load benchmark takes (parseArgs form): run length, load, catalogue size, encoding. */
export const LOAD_BENCH_OPTIONS = {
  duration: { type: "string", default: "10" },
  connections: { type: "string", default: "50" },
  suites: { type: "string", default: "100000" },
  plays: { type: "string", default: "1000000" },
  // What a browser sends; "identity" measures uncompressed answers.
  encoding: { type: "string", default: "gzip, deflate, br" },
} as const;

/** One autocannon run as a table row: req/s, p50/p99/max ms, failures and the load before it. */
export const resultRow = (name: string, r: autocannon.Result, load: string) => ({
  run: name,
  "req/s": Math.round(r.requests.average),
  "p50 ms": r.latency.p50,
  "p99 ms": r.latency.p99,
  "max ms": r.latency.max,
  non2xx: r.non2xx,
  errors: r.errors + r.timeouts,
  load,
});
