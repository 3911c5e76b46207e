import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";
import { allowList } from "./lib/address-list.js";
import type { MailFrom } from "./modules/mail/mailer.js";
import { BUILTIN_SOURCES } from "./modules/sources/registry.js";

const KNOWN_SOURCES = BUILTIN_SOURCES.map((s) => s.code);

/** A list the SSRF guard can use (addresses, CIDR ranges, `loopback`). */
function isAllowList(entries: string[]): boolean {
  try {
    allowList(entries);
    return true;
  } catch {
    return false;
  }
}
const KNOWN_SOURCES_TEXT = KNOWN_SOURCES.join(", ");

/** proxy-addr's names for address ranges (Fastify's trustProxy). */
const PROXY_RANGE_NAMES = ["loopback", "linklocal", "uniquelocal"];

/** An address, a CIDR range (`10.0.0.0/8`, `::1/128`) or one of PROXY_RANGE_NAMES. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address, bits, extra] = entry.split("/");
  const family = isIP(address ?? "");
  if (family === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

const urlWithProtocol = (protocols: string[]) =>
  z
    .string()
    .refine((v) => protocols.some((p) => v.startsWith(`${p}://`)), {
      message: `must start with ${protocols.map((p) => `${p}://`).join(" or ")}`,
    })
    .optional();

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  HOST: z.string().default("0.0.0.0"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: urlWithProtocol(["postgres", "postgresql"]),
  /**
   * PGlite's buffer pool (ADR 0037); unset: an eighth of the database's size on disk at start,
   * 16MB to 128MB (the demo catalogue's memory stays low, a large catalogue keeps its pages).
   */
  PGLITE_SHARED_BUFFERS: z
    .string()
    .regex(/^\d+(kB|MB|GB)$/, { message: "must be a size such as 16MB" })
    .optional(),
  /** PGlite on a worker thread of its own (ADR 0068); 0: on the server's thread. */
  PGLITE_THREAD: z.enum(["0", "1"]).default("1"),
  /** On PGlite's thread, each distinct statement parsed and planned once (ADR 0068); 0: PGlite's own query. */
  PGLITE_PREPARED: z.enum(["0", "1"]).default("1"),
  REDIS_URL: urlWithProtocol(["redis", "rediss"]),
  /** Prepended to every Redis key and channel (ADR 0039): several sites can share one Redis. */
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_.-]{1,64}$/, { message: "must be 1-64 letters, digits or :_.-" })
    .default("dj:"),
  SMTP_URL: urlWithProtocol(["smtp", "smtps"]),
  /** The From of account mails (codes), as given; unset: the site's title (后台 网站设置) <no-reply@ the PUBLIC_URL's host>. */
  MAIL_FROM: z.string().optional(),
  PUBLIC_URL: urlWithProtocol(["http", "https"]),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Log lines as JSON (one object per line) or readable text; unset: readable on a terminal, JSON otherwise (ADR 0044). */
  LOG_FORMAT: z.enum(["json", "pretty"]).optional(),
  /** Who may read /metrics by address (ADR 0044): addresses, CIDR ranges or `loopback`, comma-separated; `none` = nobody. */
  METRICS_ALLOW: z.string().default("loopback"),
  /** A bearer token that opens /metrics from anywhere (at least 16 characters); unset = none. */
  METRICS_TOKEN: z.string().min(16, { message: "must be at least 16 characters" }).optional(),
  /** Seeds the demo catalogue on first start; set to 0 for an empty production site. */
  SEED_DEMO: z.enum(["0", "1"]).default("1"),
  /** Time given to in-flight requests on SIGTERM before the process exits anyway. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  /** On SIGTERM, media downloads still streaming after this are cut (a player resumes elsewhere with a Range). */
  SHUTDOWN_STREAM_GRACE_MS: z.coerce.number().int().min(0).default(5_000),
  /**
   * The proxies whose X-Forwarded-For/-Proto/-Host count (the client address of rate limits and
   * visitor ids, `Secure` cookies): `true` (every hop: only when nothing reaches the app but
   * through a proxy), or addresses, CIDR ranges and proxy-addr's names, comma-separated
   * (`127.0.0.1`, `10.0.0.0/8,loopback`). Unset: none, the socket's address counts.
   */
  TRUST_PROXY: z
    .string()
    .transform((v) => (v.trim() === "true" ? true : v.split(",").map((a) => a.trim()).filter((a) => a !== "")))
    .refine((v) => v === true || (v.length > 0 && v.every(isProxyAddress)), {
      message: `must be true, or addresses, CIDR ranges or ${PROXY_RANGE_NAMES.join("/")}, comma-separated`,
    })
    .optional(),
  /** Longest a request may take to arrive, headers and body (not the answer: mixes stream for an hour). */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  /** Longest the request line and headers may take to arrive. */
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).default(20_000),
  /** Background chart rebuilds: milliseconds between runs, 0 = off. */
  CHARTS_REBUILD_INTERVAL_MS: z.coerce
    .number()
    .int()
    .refine((n) => n === 0 || n >= 1000, { message: "must be 0 or a whole number >= 1000" })
    .default(300_000),
  /** Collection (issue 11): this instance's collect runner and schedule tick, milliseconds between looks; 0 = off. */
  COLLECT_INTERVAL_MS: z.coerce
    .number()
    .int()
    .refine((n) => n === 0 || n >= 1000, { message: "must be 0 or a whole number >= 1000" })
    .default(60_000),
  /** Source canaries (issue 22, ADR 0049): milliseconds between rounds, on the leader lease's holder; 0 = off. */
  CANARY_INTERVAL_MS: z.coerce
    .number()
    .int()
    .refine((n) => n === 0 || n >= 1000, { message: "must be 0 or a whole number >= 1000" })
    .default(30 * 60_000),
  /** How long a collect job stays held by its runner without storing a page (a dead runner's job is taken after it). */
  COLLECT_LEASE_MS: z.coerce.number().int().min(1000).default(120_000),
  /** Milliseconds between sweeps of unused uploaded covers, media and block images; 0 = never. */
  UPLOAD_SWEEP_INTERVAL_MS: z.coerce.number().int().min(0).default(6 * 3600_000),
  /** VACUUM (ANALYZE) of the embedded database (PGlite has no autovacuum; ADR 0042): milliseconds between runs, 0 = off. */
  PGLITE_VACUUM_INTERVAL_MS: z.coerce
    .number()
    .int()
    .refine((n) => n === 0 || n >= 1000, { message: "must be 0 or a whole number >= 1000" })
    .default(6 * 3600_000),
  /** Bytes the kept public pages may hold in memory (ADR 0033); 0 = pages are rendered per request. */
  PAGE_CACHE_MAX_BYTES: z.coerce.number().int().min(0).default(64 * 1024 * 1024),
  /** Kept pages answered before Fastify's hooks (ADR 0069); 0 = through Fastify like every request. */
  KEPT_LANE: z.enum(["0", "1"]).default("1"),
  /** Addresses and CIDR ranges the outbound SSRF guard lets through (lab setups, tests): `10.0.0.5,192.168.1.0/24`; default none. */
  OUTBOUND_ALLOW: z
    .string()
    .transform((v) => v.split(",").map((c) => c.trim()).filter((c) => c !== "" && c !== "none"))
    .refine(isAllowList, { message: "must list IP addresses, CIDR ranges or loopback" })
    .optional(),
  /**
   * Worker threads running source plugins (each a V8 isolate, ~50 MB), started as plugins load; they
   * run at a lower CPU priority than the server's thread, so two use both cores only when it is idle.
   */
  PLUGIN_WORKERS: z.coerce.number().int().min(1).max(8).default(2),
  /** Background pre-render (ADR 0038): the most-played suites rendered after start and changes; 0 = none. */
  PRERENDER_SUITES: z.coerce.number().int().min(0).max(2000).default(200),
  /** Background pre-render: the first N pages of every category; 0 = none (both 0: no pre-render). */
  PRERENDER_CATEGORY_PAGES: z.coerce.number().int().min(0).max(100).default(1),
  /** Pre-render: milliseconds of it before the server listens (ADR 0045); the first suite and category page always. */
  PRERENDER_BEFORE_LISTEN_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
  /**
   * The built-in DJ sites switched on (issue 11; issue 21: all of them unless told): `none`, or
   * codes among the built-ins, e.g. `djuu,vvvdj`. It seeds `source_sites.enabled` (ADR 0047).
   */
  EXTERNAL_SOURCES: z
    .string()
    .transform((v) => [...new Set(v.split(",").map((c) => c.trim()).filter((c) => c !== ""))])
    .refine((codes) => !codes.includes("none") || codes.length === 1, { message: "none stands alone" })
    .refine((codes) => codes.every((c) => c === "none" || KNOWN_SOURCES.includes(c)), { message: `must be none or list codes among ${KNOWN_SOURCES_TEXT}` })
    .transform((codes) => (codes.includes("none") ? [] : codes))
    .optional(),
});

export interface Config {
  env: "development" | "production" | "test";
  dev: boolean;
  host: string;
  port: number;
  dataDir: string;
  mediaDir: string;
  uploadsDir: string;
  databaseUrl?: string;
  /** PGlite's shared_buffers, e.g. "16MB". */
  pgliteSharedBuffers?: string;
  /** PGlite on a thread of its own. */
  pgliteThread: boolean;
  /** Named prepared statements on PGlite's thread. */
  pglitePrepared: boolean;
  redisUrl?: string;
  /** Key and channel prefix in Redis. */
  redisPrefix: string;
  smtpUrl?: string;
  /**
   * From of account mails: MAIL_FROM as given, or its address alone, the name then being the
   * site's title when the mail is sent (an admin who renames the site renames its mails' sender).
   */
  mailFrom: MailFrom;
  /** Absolute site address used in canonical URLs, sitemaps and emails. */
  publicUrl: string;
  logLevel: string;
  /** Unset: pretty on a terminal, JSON otherwise (main.ts decides). */
  logFormat?: "json" | "pretty";
  /** /metrics (ADR 0044): the addresses that may read it, and the bearer token that may. */
  metrics: { allow: string[]; token?: string };
  seedDemo: boolean;
  shutdownTimeoutMs: number;
  shutdownStreamGraceMs: number;
  /** Fastify's trustProxy: true (every hop), the trusted proxies, or false (none). */
  trustProxy: boolean | string[];
  chartsRebuildIntervalMs: number;
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  /** Built-in sources EXTERNAL_SOURCES switches on (default all; `none` = []); seeds `source_sites.enabled` (ADR 0047). */
  externalSources: string[];
  /** OUTBOUND_ALLOW: what the SSRF guard of plugins lets through besides public addresses. */
  outboundAllow: string[];
  pluginWorkers: number;
  /** Source canaries: milliseconds between rounds (0 = none). */
  canaryIntervalMs: number;
  /** Collect runner and schedule: milliseconds between looks (0 = this instance runs no collect job). */
  collectIntervalMs: number;
  collectLeaseMs: number;
  uploadSweepIntervalMs: number;
  pageCacheMaxBytes: number;
  /** KEPT_LANE: kept pages answered in front of Fastify (ADR 0069). */
  keptLane: boolean;
  /** PGlite only: milliseconds between VACUUM (ANALYZE) runs, 0 = never. */
  pgliteVacuumIntervalMs: number;
  /** Kept pages rendered in the background after start and changes (0 and 0: none). */
  prerender: { suites: number; categoryPages: number; beforeListenMs: number };
}

export class ConfigError extends Error {}

function metricsAllow(value: string): string[] {
  const entries = value === "none" ? [] : value.split(",").map((v) => v.trim()).filter((v) => v !== "");
  try {
    allowList(entries);
  } catch (err) {
    throw new ConfigError(`Invalid environment:\n  METRICS_ALLOW: ${(err as Error).message}`);
  }
  return entries;
}

/** Empty environment variables count as unset, so `FOO= npm start` means "use the default". */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid environment:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  if (e.HEADERS_TIMEOUT_MS > e.REQUEST_TIMEOUT_MS) {
    throw new ConfigError("Invalid environment:\n  HEADERS_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS");
  }
  if (e.SHUTDOWN_STREAM_GRACE_MS >= e.SHUTDOWN_TIMEOUT_MS) {
    throw new ConfigError("Invalid environment:\n  SHUTDOWN_STREAM_GRACE_MS: must be less than SHUTDOWN_TIMEOUT_MS");
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const shownHost = e.HOST === "0.0.0.0" || e.HOST === "::" ? "localhost" : e.HOST;
  return {
    env: e.NODE_ENV,
    dev: e.NODE_ENV === "development",
    host: e.HOST,
    port: e.PORT,
    dataDir,
    mediaDir: path.join(dataDir, "media"),
    uploadsDir: path.join(dataDir, "uploads"),
    databaseUrl: e.DATABASE_URL,
    pgliteSharedBuffers: e.PGLITE_SHARED_BUFFERS,
    pgliteThread: e.PGLITE_THREAD === "1",
    pglitePrepared: e.PGLITE_PREPARED === "1",
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? { address: `no-reply@${e.PUBLIC_URL ? new URL(e.PUBLIC_URL).hostname : "localhost"}` },
    publicUrl: (e.PUBLIC_URL ?? `http://${shownHost}:${e.PORT}`).replace(/\/+$/, ""),
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    metrics: { allow: metricsAllow(e.METRICS_ALLOW), token: e.METRICS_TOKEN },
    seedDemo: e.SEED_DEMO === "1",
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    shutdownStreamGraceMs: e.SHUTDOWN_STREAM_GRACE_MS,
    trustProxy: e.TRUST_PROXY ?? false,
    chartsRebuildIntervalMs: e.CHARTS_REBUILD_INTERVAL_MS,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
    externalSources: e.EXTERNAL_SOURCES ?? [...KNOWN_SOURCES],
    outboundAllow: e.OUTBOUND_ALLOW ?? [],
    pluginWorkers: e.PLUGIN_WORKERS,
    collectIntervalMs: e.COLLECT_INTERVAL_MS,
    canaryIntervalMs: e.CANARY_INTERVAL_MS,
    collectLeaseMs: e.COLLECT_LEASE_MS,
    uploadSweepIntervalMs: e.UPLOAD_SWEEP_INTERVAL_MS,
    pageCacheMaxBytes: e.PAGE_CACHE_MAX_BYTES,
    keptLane: e.KEPT_LANE === "1",
    pgliteVacuumIntervalMs: e.PGLITE_VACUUM_INTERVAL_MS,
    prerender: { suites: e.PRERENDER_SUITES, categoryPages: e.PRERENDER_CATEGORY_PAGES, beforeListenMs: e.PRERENDER_BEFORE_LISTEN_MS },
  };
}
