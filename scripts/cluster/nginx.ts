/**
 * Debian's nginx run as a child process with its own prefix (config, pid, logs, temp files under
 * one directory), in the foreground: never the system's /etc/nginx service (ADR 0041).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
export const NGINX_TEMPLATE = path.join(ROOT, "deploy", "nginx", "cluster.conf.template");
const NGINX = process.env.NGINX_PATH ?? "/usr/sbin/nginx";

/** Installs nginx with apt-get when missing (scripts/ensure-nginx.sh, as root or with sudo). */
export function ensureNginx(): string {
  if (!existsSync(NGINX)) execFileSync("bash", [path.join(ROOT, "scripts", "ensure-nginx.sh")], { stdio: "inherit" });
  if (!existsSync(NGINX)) throw new Error(`nginx not found at ${NGINX} (set NGINX_PATH)`);
  return NGINX;
}

export interface NginxOptions {
  /** Directory of its config, pid, logs and temp files. */
  prefix: string;
  /** host:port to listen on. */
  listen: string;
  /** The instances, host:port each. */
  upstreams: string[];
  /** Passive health check: failed attempts within `failTimeoutS` that take an instance out for `failTimeoutS`. */
  maxFails?: number;
  failTimeoutS?: number;
  /** Per-request access log (upstream addresses and statuses); off for benchmarks. */
  accessLog?: boolean;
  /** Worker processes (default 1: the machine has two cores and the instances need them). */
  workers?: number;
}

/** The template with its slots filled. */
export async function renderNginxConfig(o: NginxOptions): Promise<string> {
  const template = await readFile(NGINX_TEMPLATE, "utf8");
  const servers = o.upstreams
    .map((u) => `        server ${u} max_fails=${o.maxFails ?? 2} fail_timeout=${o.failTimeoutS ?? 5}s;`)
    .join("\n");
  const slots: Record<string, string> = {
    PREFIX: o.prefix,
    LISTEN: o.listen,
    SERVERS: servers,
    WORKERS: String(o.workers ?? 1),
    // Started by root, nginx's workers would run as nobody, who cannot enter a private
    // DATA_DIR (mkdtemp's 0700) to spool a request body or a large answer: they run as the
    // one who started the stack. A deployment sets its own `user`.
    USER: process.getuid?.() === 0 ? "user root;" : "# user: the one who started nginx",
    ACCESS_LOG: o.accessLog === false ? "off" : `${path.join(o.prefix, "logs", "access.log")} upstreams`,
  };
  const filled = template.replace(/\{\{([A-Z_]+)\}\}/g, (_, name: string) => {
    if (!(name in slots)) throw new Error(`nginx template: unknown slot {{${name}}}`);
    return slots[name]!;
  });
  return filled;
}

export interface RunningNginx {
  process: ChildProcess;
  configFile: string;
  accessLogFile: string;
  /** What nginx wrote to stderr and its error log so far. */
  errors(): Promise<string>;
  /** SIGQUIT (graceful: finishes what it serves, up to worker_shutdown_timeout) and wait for the exit. */
  stop(): Promise<void>;
  /** Rewrites the config with these instances and reloads it (SIGHUP: new workers, old ones finish). */
  setUpstreams(upstreams: string[]): Promise<void>;
}

/** Writes the config, checks it (`nginx -t`), and starts nginx in the foreground. */
export async function startNginx(o: NginxOptions): Promise<RunningNginx> {
  const bin = ensureNginx();
  for (const dir of ["logs", "temp"]) await mkdir(path.join(o.prefix, dir), { recursive: true });
  const configFile = path.join(o.prefix, "nginx.conf");
  await writeFile(configFile, await renderNginxConfig(o));
  // -e: the error log before the config is read (else the built-in /var/log/nginx/error.log).
  const args = ["-p", o.prefix, "-c", configFile, "-e", path.join(o.prefix, "logs", "error.log")];
  execFileSync(bin, [...args, "-t", "-q"], { stdio: ["ignore", "ignore", "inherit"] });
  const child = spawn(bin, args, { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (c) => (stderr += c));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const errors = async () => stderr + (await readFile(path.join(o.prefix, "logs", "error.log"), "utf8").catch(() => ""));

  // Listening once a TCP connection is accepted.
  const [host, port] = splitHostPort(o.listen);
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}):\n${await errors()}`);
    if (await fetch(`http://${host}:${port}/__nginx_probe`, { signal: AbortSignal.timeout(1000) }).then(() => true, () => false)) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`nginx did not listen on ${o.listen}:\n${await errors()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    process: child,
    configFile,
    accessLogFile: path.join(o.prefix, "logs", "access.log"),
    errors,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGQUIT");
      await exited;
    },
    setUpstreams: async (upstreams) => {
      await writeFile(configFile, await renderNginxConfig({ ...o, upstreams }));
      execFileSync(bin, [...args, "-t", "-q"], { stdio: ["ignore", "ignore", "inherit"] });
      child.kill("SIGHUP");
      // The new workers take over at once; the old ones finish their requests.
      await new Promise((r) => setTimeout(r, 500));
    },
  };
}

function splitHostPort(listen: string): [string, string] {
  const i = listen.lastIndexOf(":");
  return [listen.slice(0, i), listen.slice(i + 1)];
}

/** One line of the `upstreams` access log. */
export interface AccessLogEntry {
  /** When nginx finished the request (ms since the epoch) and how long it took (ms). */
  endMs: number;
  durationMs: number;
  status: number;
  method: string;
  uri: string;
  /** Each instance tried, in order ("127.0.0.1:4001"), with its status ("502", or "-" when none came)
   *  and the time nginx spent connecting to it: 0 for a kept-alive connection it reused, null when
   *  no connection was made. */
  upstreams: { addr: string; status: string; connectMs: number | null }[];
}

function connectTime(field: string | undefined): number | null {
  const seconds = Number(field);
  return field === undefined || field === "-" || field === "" || !Number.isFinite(seconds) ? null : seconds * 1000;
}

export function parseAccessLog(text: string): AccessLogEntry[] {
  const line = /^(\d+\.\d+) (\d+\.\d+) (\d+) (\S+) "([^"]*)" upstream="([^"]*)" ustatus="([^"]*)"(?: utime="[^"]*" uconnect="([^"]*)")?/;
  const entries: AccessLogEntry[] = [];
  for (const raw of text.split("\n")) {
    const m = line.exec(raw);
    if (!m) continue;
    // Tries are separated by ", " (and " : " between upstream groups, not used here).
    const addrs = m[6]!.split(/, | : /);
    const statuses = m[7]!.split(/, | : /);
    const connects = (m[8] ?? "").split(/, | : /);
    entries.push({
      endMs: Number(m[1]) * 1000,
      durationMs: Number(m[2]) * 1000,
      status: Number(m[3]),
      method: m[4]!,
      uri: m[5]!,
      upstreams: addrs
        .filter((a) => a !== "-")
        .map((addr, i) => ({ addr, status: statuses[i] ?? "-", connectMs: connectTime(connects[i]) })),
    });
  }
  return entries;
}
