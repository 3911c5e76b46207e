import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../scripts/cluster/stack.js";
import { ensureServerBuild, SERVER_BUILD } from "./server-build.js";

export interface RunningSite {
  url: string;
  dataDir: string;
  process: ChildProcess;
  /** Everything the server printed so far (JSON log lines). */
  output(): string;
  /** What it printed on stdout alone (the log; Node's warnings go to stderr). */
  stdout(): string;
  /** SIGTERM and wait for the exit code. */
  stop(): Promise<number | null>;
  /** stop() and remove the data directory unless it was given by the caller. */
  dispose(): Promise<void>;
}

export { freePort };

/** The server's background jobs off (charts, collector, upload sweep, pre-render): a test that is not about them starts faster. */
export const NO_BACKGROUND_JOBS = { CHARTS_REBUILD_INTERVAL_MS: "0", COLLECT_INTERVAL_MS: "0", UPLOAD_SWEEP_INTERVAL_MS: "0", PRERENDER_SUITES: "0", PRERENDER_CATEGORY_PAGES: "0" };

/**
 * The built server (build/node/main.js; call ensureServerBuild first) as its own process on
 * `port` with DATA_DIR, in production mode as `npm run serve` runs it; its output is piped.
 */
export function spawnServer(dataDir: string, port: number, env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [SERVER_BUILD], {
    cwd: path.resolve(import.meta.dirname, ".."),
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: "info",
      // No test asks the real DJ sites (ADR 0047): a test that wants sources says so in `env`.
      EXTERNAL_SOURCES: "none",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/**
 * Starts the real site (server/main.ts, production build of the web app) as its own process on
 * a free port with a fresh DATA_DIR, in production mode as `npm run serve` does, and waits for
 * /healthz. It runs build/node/main.js, rebuilt first when older than the sources
 * (e2e/server-build.ts), so a test never meets a server build older than the code.
 */
export async function startSite(opts: { dataDir?: string; env?: Record<string, string> } = {}): Promise<RunningSite> {
  const ownDir = !opts.dataDir;
  const dataDir = opts.dataDir ?? (await mkdtemp(path.join(tmpdir(), "djsite-")));
  await ensureServerBuild();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawnServer(dataDir, port, opts.env);
  let output = "";
  let stdout = "";
  child.stdout!.on("data", (chunk) => {
    output += chunk;
    stdout += chunk;
  });
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  // After the exit, its last output (the reason it gave) is read only once its pipes close.
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));

  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) {
      await Promise.race([closed, new Promise((r) => setTimeout(r, 2_000))]);
      throw new Error(`site exited with ${child.exitCode}:\n${output}`);
    }
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`site did not become healthy in time:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }

  const stop = async () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    return exited;
  };
  return {
    url,
    dataDir,
    process: child,
    output: () => output,
    stdout: () => stdout,
    stop,
    dispose: async () => {
      await stop();
      if (ownDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
