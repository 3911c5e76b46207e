import path from "node:path";
import { z } from "zod";
import { BUILTIN_SOURCES } from "./modules/sources/registry.js";

const KNOWN_SOURCES = BUILTIN_SOURCES.map((s) => s.code);
const KNOWN_SOURCES_TEXT = KNOWN_SOURCES.join(", ");

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
  REDIS_URL: urlWithProtocol(["redis", "rediss"]),
  SMTP_URL: urlWithProtocol(["smtp", "smtps"]),
  /** The From of account mails (codes); default "DJ搜索引擎网" <no-reply@ the PUBLIC_URL's host>. */
  MAIL_FROM: z.string().optional(),
  PUBLIC_URL: urlWithProtocol(["http", "https"]),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Seeds the demo catalogue on first start; set to 0 for an empty production site. */
  SEED_DEMO: z.enum(["0", "1"]).default("1"),
  /** Time given to in-flight requests on SIGTERM before the process exits anyway. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  TRUST_PROXY: z.string().optional(),
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
  /** How long a collect job stays held by its runner without storing a page (a dead runner's job is taken after it). */
  COLLECT_LEASE_MS: z.coerce.number().int().min(1000).default(120_000),
  /** Milliseconds between sweeps of unused uploaded covers, media and block images; 0 = never. */
  UPLOAD_SWEEP_INTERVAL_MS: z.coerce.number().int().min(0).default(6 * 3600_000),
  /** Bytes the kept public pages may hold in memory (ADR 0033); 0 = pages are rendered per request. */
  PAGE_CACHE_MAX_BYTES: z.coerce.number().int().min(0).default(64 * 1024 * 1024),
  /** Background pre-render (ADR 0038): the most-played suites rendered after start and changes; 0 = none. */
  PRERENDER_SUITES: z.coerce.number().int().min(0).max(2000).default(200),
  /** Background pre-render: the first N pages of every category; 0 = none (both 0: no pre-render). */
  PRERENDER_CATEGORY_PAGES: z.coerce.number().int().min(0).max(100).default(1),
  /** External DJ sites searched and played beside the catalogue (issue 11), e.g. `djuu,172minx,vvvdj`; unset = none. */
  EXTERNAL_SOURCES: z
    .string()
    .transform((v) => [...new Set(v.split(",").map((c) => c.trim()).filter((c) => c !== ""))])
    .refine((codes) => codes.every((c) => KNOWN_SOURCES.includes(c)), { message: `must list codes among ${KNOWN_SOURCES_TEXT}` })
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
  redisUrl?: string;
  smtpUrl?: string;
  /** From address of account mails. */
  mailFrom: string;
  /** Absolute site address used in canonical URLs, sitemaps and emails. */
  publicUrl: string;
  logLevel: string;
  seedDemo: boolean;
  shutdownTimeoutMs: number;
  trustProxy: boolean | string;
  chartsRebuildIntervalMs: number;
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  /** Codes of the external sources to use (BUILTIN_SOURCES); empty = the local catalogue alone. */
  externalSources: string[];
  /** Collect runner and schedule: milliseconds between looks (0 = this instance runs no collect job). */
  collectIntervalMs: number;
  collectLeaseMs: number;
  uploadSweepIntervalMs: number;
  pageCacheMaxBytes: number;
  /** Kept pages rendered in the background after start and changes (0 and 0: none). */
  prerender: { suites: number; categoryPages: number };
}

export class ConfigError extends Error {}

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
    redisUrl: e.REDIS_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? `"DJ搜索引擎网" <no-reply@${e.PUBLIC_URL ? new URL(e.PUBLIC_URL).hostname : "localhost"}>`,
    publicUrl: (e.PUBLIC_URL ?? `http://${shownHost}:${e.PORT}`).replace(/\/+$/, ""),
    logLevel: e.LOG_LEVEL,
    seedDemo: e.SEED_DEMO === "1",
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    trustProxy: e.TRUST_PROXY === undefined ? false : e.TRUST_PROXY === "true" ? true : e.TRUST_PROXY,
    chartsRebuildIntervalMs: e.CHARTS_REBUILD_INTERVAL_MS,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
    externalSources: e.EXTERNAL_SOURCES ?? [],
    collectIntervalMs: e.COLLECT_INTERVAL_MS,
    collectLeaseMs: e.COLLECT_LEASE_MS,
    uploadSweepIntervalMs: e.UPLOAD_SWEEP_INTERVAL_MS,
    pageCacheMaxBytes: e.PAGE_CACHE_MAX_BYTES,
    prerender: { suites: e.PRERENDER_SUITES, categoryPages: e.PRERENDER_CATEGORY_PAGES },
  };
}
