/**
 * A load client in a process of its own (issue 23, point 9): autocannon beside the bench's other
 * work would share that process's thread and read its own limits as the server's. Forked by
 * `loadClient()`; each `run` message is one autocannon run whose paths are drawn at random from
 * `paths`, each request from another client address without a cookie; the answer carries this
 * process's CPU time over the run, so a client near one core shows that it, not the server, bound
 * the run.
 */
import autocannon from "autocannon";
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { benchClientAddress } from "./bench-server.js";

export interface LoadRun {
  url: string;
  paths: string[];
  connections: number;
  /** Seconds. */
  duration: number;
  headers?: Record<string, string>;
}

export interface LoadResult {
  total: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** CPU ms of the client process during the run, and the run's wall ms. */
  clientCpuMs: number;
  wallMs: number;
}

const pick = (list: readonly string[]) => list[Math.floor(Math.random() * list.length)]!;

async function runOnce(job: LoadRun): Promise<LoadResult> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const r = await autocannon({
    url: job.url,
    connections: job.connections,
    duration: job.duration,
    headers: job.headers ?? {},
    requests: [{ setupRequest: (req) => ({ ...req, path: pick(job.paths), headers: { ...req.headers, "x-forwarded-for": benchClientAddress() } }) }],
  });
  const used = process.cpuUsage(cpu);
  return {
    total: r.requests.total,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    clientCpuMs: (used.user + used.system) / 1000,
    wallMs: performance.now() - started,
  };
}

/** The bench's side: a forked client; `run` sends one job and resolves with its result. */
export function loadClient(): { run(job: LoadRun): Promise<LoadResult>; close(): void } {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ["--child"], { execArgv: ["--import", "tsx"], stdio: "inherit" });
  let queue = Promise.resolve() as Promise<unknown>;
  return {
    run(job) {
      const next = queue.then(
        () =>
          new Promise<LoadResult>((resolve) => {
            child.once("message", (m) => resolve(m as LoadResult));
            child.send(job);
          }),
      );
      queue = next;
      return next;
    },
    close: () => void child.kill("SIGTERM"),
  };
}

if (process.argv.includes("--child")) {
  process.on("message", async (job) => process.send?.(await runOnce(job as LoadRun)));
  process.on("disconnect", () => process.exit(0));
}
