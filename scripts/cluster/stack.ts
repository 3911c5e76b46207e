/**
 * The whole stack on one machine (ADR 0041): instances of the built server, started as
 * `npm run serve` starts it, on one PostgreSQL database (and Redis when given), behind nginx.
 * `npm run cluster`, the cluster tests (e2e/cluster.ts) and bench/cluster.ts build on it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, existsSync, readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";
import pg from "pg";
import { type RunningNginx, startNginx } from "./nginx.js";

export const ROOT = path.resolve(import.meta.dirname, "..", "..");
export const SERVER_BUILD = path.join(ROOT, "build", "node", "main.js");

/**
 * Ports for servers started here are drawn below Linux's ephemeral range (32768-60999): a port
 * the kernel handed out for a listen(0) and freed again could be taken as the source port of any
 * outgoing connection before the server binds it (seen: a site that exited at start while two
 * test streams and Chromium opened connections). Outgoing connections never use these.
 */
const PORTS_FROM = 20_000;
const PORTS_TO = 32_000;

/** A port nothing listens on now (tried by binding it), outside the ephemeral range. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const port = PORTS_FROM + Math.floor(Math.random() * (PORTS_TO - PORTS_FROM));
    if (await canListen(port)) return port;
    if (attempt >= 50) throw new Error(`no free port in ${PORTS_FROM}-${PORTS_TO} after 50 tries`);
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** `npm run serve`'s command line from package.json. */
export function serveCommand(root = ROOT): { env: Record<string, string>; command: string; args: string[] } {
  const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };
  return parseServeScript(pkg.scripts.serve!);
}

/** A package.json script's command line: leading VAR=value words are its environment. */
export function parseServeScript(script: string): { env: Record<string, string>; command: string; args: string[] } {
  const words = script.trim().split(/\s+/);
  const env: Record<string, string> = {};
  while (words[0] && /^[A-Z_][A-Z0-9_]*=/.test(words[0])) {
    const [name, ...rest] = words.shift()!.split("=");
    env[name!] = rest.join("=");
  }
  const [command, ...args] = words;
  return { env, command: command === "node" ? process.execPath : command!, args };
}

/**
 * Creates the database of `url` when missing, from template0 with a UTF-8 ctype (pg_trgm
 * needs it for Chinese), through the server's `postgres` database. Returns whether it made it.
 */
export async function ensureDatabase(url: string): Promise<boolean> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`database name "${name}": use lower-case letters, digits and _`);
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (rowCount) return false;
    await client.query(`create database ${name} template template0 encoding 'UTF8' lc_ctype 'C.UTF-8' lc_collate 'C.UTF-8'`);
    return true;
  } finally {
    await client.end();
  }
}

export interface InstanceOptions {
  name: string;
  port: number;
  env: Record<string, string>;
  /** Where its log lines go (appended): a file, and/or a callback per line. */
  logFile?: string;
  onLine?: (line: string) => void;
}

/** One instance of the built server: started, stopped, killed and restarted on the same port. */
export class Instance {
  readonly name: string;
  readonly port: number;
  readonly url: string;
  private child?: ChildProcess;
  private exit?: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private log = "";

  constructor(private readonly o: InstanceOptions) {
    this.name = o.name;
    this.port = o.port;
    this.url = `http://127.0.0.1:${o.port}`;
  }

  /** The process id while it runs. */
  get pid(): number | undefined {
    return this.running ? this.child?.pid : undefined;
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Everything it printed since it was made (all its runs). */
  output(): string {
    return this.log;
  }

  /** Starts it and waits until /healthz answers 200 (timeoutMs, default 120 s: the first start seeds). */
  async start(timeoutMs = 120_000): Promise<void> {
    if (this.running) throw new Error(`instance ${this.name} is already running`);
    if (!existsSync(SERVER_BUILD)) throw new Error(`${SERVER_BUILD} missing: run \`npm run build\` first`);
    const serve = serveCommand();
    const child = spawn(serve.command, serve.args, {
      cwd: ROOT,
      env: { ...process.env, ...serve.env, ...this.o.env, HOST: "127.0.0.1", PORT: String(this.port) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child = child;
    this.exit = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
    const file = this.o.logFile ? createWriteStream(this.o.logFile, { flags: "a" }) : undefined;
    let partial = "";
    const take = (chunk: Buffer) => {
      const text = chunk.toString();
      this.log += text;
      file?.write(text);
      if (!this.o.onLine) return;
      const lines = (partial + text).split("\n");
      partial = lines.pop()!;
      for (const line of lines) this.o.onLine(line);
    };
    child.stdout!.on("data", take);
    child.stderr!.on("data", take);
    child.once("exit", () => file?.end());

    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (!this.running) throw new Error(`instance ${this.name} exited (${child.exitCode ?? child.signalCode}):\n${this.log.slice(-4000)}`);
      const ok = await fetch(`${this.url}/healthz`, { signal: AbortSignal.timeout(2000) }).then((r) => r.ok, () => false);
      if (ok) return;
      if (Date.now() > deadline) {
        child.kill("SIGKILL");
        throw new Error(`instance ${this.name} did not answer /healthz in ${timeoutMs} ms:\n${this.log.slice(-4000)}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** SIGTERM (graceful shutdown) and its exit code. */
  async terminate(): Promise<number | null> {
    if (!this.child || !this.exit) return null;
    if (this.running) this.child.kill("SIGTERM");
    return (await this.exit).code;
  }

  /** SIGKILL: gone at once, nothing flushed. Resolves when the process is gone. */
  async kill(): Promise<void> {
    if (!this.child || !this.exit) return;
    if (this.running) this.child.kill("SIGKILL");
    await this.exit;
  }

  /** Resolves when the current run ends, with its exit code and signal. */
  exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    return this.exit ?? Promise.resolve({ code: null, signal: null });
  }
}

export interface ClusterOptions {
  /** PostgreSQL database of the instances (created from template0 when missing). */
  databaseUrl: string;
  /** Passed to the instances as REDIS_URL. */
  redisUrl?: string;
  /** DATA_DIR of every instance (media, uploads: shared, as a shared volume would be). */
  dataDir: string;
  /** nginx's prefix (config, pid, logs, temp); default `${dataDir}/nginx`. */
  nginxDir?: string;
  /** Number of instances (default 2), named A, B, C... */
  instances?: number;
  /** nginx's address; default 127.0.0.1 on a free port. */
  listen?: string;
  /**
   * EXTERNAL_SOURCES of every instance, always said (ADR 0047): `none` for tests and benchmarks
   * (no request to the real sites), `""` for the default (every built-in site on).
   */
  externalSources: string;
  /** More environment for every instance (e.g. SHUTDOWN_STREAM_GRACE_MS). */
  env?: Record<string, string>;
  /** Per-request nginx access log (default on; off for benchmarks). */
  accessLog?: boolean;
  /** Each instance's log lines as they come (the CLI prints some). */
  onLine?: (instance: string, line: string) => void;
  /** Passive health check of the upstream (nginx max_fails / fail_timeout). */
  maxFails?: number;
  failTimeoutS?: number;
}

export interface Cluster {
  /** nginx's address: the site. */
  url: string;
  databaseUrl: string;
  dataDir: string;
  instances: Instance[];
  nginx: RunningNginx;
  /** SIGTERM to every instance, SIGQUIT to nginx; resolves when all are gone. */
  stop(): Promise<void>;
}

/**
 * Starts the instances one after the other (the first start migrates the database and seeds
 * the demo catalogue; one at a time, never two migrating together), then nginx in front.
 */
export async function startCluster(o: ClusterOptions): Promise<Cluster> {
  await ensureDatabase(o.databaseUrl);
  await mkdir(o.dataDir, { recursive: true });
  const nginxDir = o.nginxDir ?? path.join(o.dataDir, "nginx");
  await mkdir(nginxDir, { recursive: true });
  const listen = o.listen ?? `127.0.0.1:${await freePort()}`;
  const url = `http://${listen}`;
  const names = Array.from({ length: o.instances ?? 2 }, (_, i) => String.fromCharCode(65 + i));
  const instances: Instance[] = [];
  for (const name of names) {
    instances.push(
      new Instance({
        name,
        port: await freePort(),
        logFile: path.join(nginxDir, "logs", `instance-${name}.log`),
        onLine: o.onLine ? (line) => o.onLine!(name, line) : undefined,
        env: {
          DATA_DIR: o.dataDir,
          DATABASE_URL: o.databaseUrl,
          ...(o.redisUrl ? { REDIS_URL: o.redisUrl } : {}),
          // Links and mails name the address visitors use; client addresses count only from nginx.
          PUBLIC_URL: url,
          TRUST_PROXY: "127.0.0.1",
          EXTERNAL_SOURCES: o.externalSources,
          ...o.env,
        },
      }),
    );
  }
  await mkdir(path.join(nginxDir, "logs"), { recursive: true });
  const started: Instance[] = [];
  let nginx: RunningNginx | undefined;
  try {
    for (const instance of instances) {
      await instance.start();
      started.push(instance);
    }
    nginx = await startNginx({
      prefix: nginxDir,
      listen,
      upstreams: instances.map((i) => `127.0.0.1:${i.port}`),
      accessLog: o.accessLog,
      maxFails: o.maxFails,
      failTimeoutS: o.failTimeoutS,
    });
  } catch (err) {
    await Promise.all(started.map((i) => i.kill()));
    throw err;
  }
  const proxy = nginx;
  return {
    url,
    databaseUrl: o.databaseUrl,
    dataDir: o.dataDir,
    instances,
    nginx: proxy,
    stop: async () => {
      await Promise.all([proxy.stop(), ...instances.map((i) => i.terminate())]);
    },
  };
}
