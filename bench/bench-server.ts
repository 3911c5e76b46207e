import type autocannon from "autocannon";
import { fork } from "node:child_process";
import { closeSync, mkdirSync, openSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { BenchTarget } from "./serve.js";
import { serveCommand } from "../scripts/cluster/stack.js";
import { buildServer } from "../scripts/build-server.js";

export { BENCH_MEMBER_PASSWORD } from "./bench-members.js";

/**
 * Another client address per call (198.18.0.0/15, the range set aside for benchmarks), sent as
 * X-Forwarded-For to serve.ts, which trusts loopback as its proxy.
 */
export const benchClientAddress = () =>
  `198.${18 + Math.floor(Math.random() * 2)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;

export interface BenchServer {
  base: string;
  target: BenchTarget;
  /** The server process's id (its CPU in /proc/{pid}). */
  pid: number;
  stop(): void;
  /** Sends `message` over IPC and resolves with the first answer that has `key` (serve.ts `--stamps`). */
  ask<T>(message: object, key: string): Promise<T>;
}

export interface BenchServerOptions {
  /**
   * As `npm run serve` runs the server: its Node flags and environment (package.json: the heap and
   * malloc settings of ADR 0037), and serve.ts compiled with the server's build into
   * build/bench-serve/ and run by plain Node. Otherwise serve.ts runs under tsx, whose transformed
   * sources and inline source maps stay in the heap (~40 MB: scripts/build-server.ts).
   */
  asServe?: boolean;
  /** The server's stdout into this file (its log, with serve.ts `--log`) rather than the bench's terminal. */
  stdoutFile?: string;
  /** More environment for the server only (e.g. NODE_OPTIONS=--cpu-prof). */
  env?: Record<string, string>;
  /** More Node flags for the server only (V8's, e.g. --trace-gc, which NODE_OPTIONS refuses). */
  execArgv?: string[];
  /**
   * The server in a session of its own. Linux (autogroup, on by default) shares the cores between
   * sessions first and between processes of a session second: a server forked into the bench's
   * session shares one session's part with the load it is measured under.
   */
  ownSession?: boolean;
}

/** Forks bench/serve.ts with `args` and resolves once it listens, with what it serves. */
export async function startBenchServer(args: string[], options: BenchServerOptions = {}): Promise<BenchServer> {
  const serve = options.asServe ? serveCommand() : { env: {}, args: [] };
  // The log's directory (DATA_DIR) may not exist yet: serve.ts creates the database in it later.
  if (options.stdoutFile) mkdirSync(path.dirname(options.stdoutFile), { recursive: true });
  const out = options.stdoutFile ? openSync(options.stdoutFile, "w") : undefined;
  const script = options.asServe ? await builtServe() : fileURLToPath(new URL("./serve.ts", import.meta.url));
  const server = fork(script, args, {
    // serve's node flags, without its script (build/node/main.js).
    execArgv: [...(options.asServe ? [] : ["--import", "tsx"]), ...serve.args.filter((a) => a.startsWith("--")), ...(options.execArgv ?? [])],
    // As `npm run serve` does: React and other libraries pick their production builds by it.
    env: { ...process.env, ...serve.env, ...options.env, NODE_ENV: "production" },
    stdio: out === undefined ? "inherit" : ["ignore", out, "inherit", "ipc"],
    detached: options.ownSession ?? false,
  });
  if (out !== undefined) closeSync(out); // the child holds its own copy
  const target = await new Promise<BenchTarget>((resolve, reject) => {
    server.once("message", (m) => resolve(m as BenchTarget));
    server.once("exit", (code) => reject(new Error(`bench server exited (${code})`)));
  });
  const ask = <T>(message: object, key: string) =>
    new Promise<T>((resolve) => {
      const listener = (m: Record<string, unknown>) => {
        if (!(key in m)) return;
        server.off("message", listener);
        resolve(m[key] as T);
      };
      server.on("message", listener);
      server.send(message);
    });
  return { base: `http://127.0.0.1:${target.port}`, target, pid: server.pid!, stop: () => server.kill("SIGTERM"), ask };
}

const BENCH_SERVE_DIR = fileURLToPath(new URL("../build/bench-serve/", import.meta.url));
let building: Promise<string> | undefined;

/** serve.ts and the server it imports, compiled as `npm run build` compiles server/main.ts (once per bench run). */
function builtServe(): Promise<string> {
  building ??= buildServer(BENCH_SERVE_DIR, fileURLToPath(new URL("./serve.ts", import.meta.url))).then(() => path.join(BENCH_SERVE_DIR, "serve.js"));
  return building;
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
