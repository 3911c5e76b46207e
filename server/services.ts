import path from "node:path";
import { adminExportService } from "./modules/admin-export/service.js";
import type { AppDatabase, DbLogger } from "./db/open.js";
import type { DatabaseEngine } from "./db/types.js";
import type { EventBus } from "./events/bus.js";
import { type LeaderLease, soleLease } from "./lib/leases.js";
import type { RedisLink } from "./lib/redis.js";
import { systemClock, type Clock } from "./lib/clock.js";
import type { MailFrom } from "./modules/mail/mailer.js";
import type { PluginSettings } from "./modules/plugins/wiring.js";
import type { SearchAnswersOptions } from "./modules/search/answers.js";
import type { OnDrift } from "./modules/sources/canary/checks.js";
import type { SourceNetwork } from "./modules/sources/generic-source.js";
import type { HealthOptions } from "./modules/sources/health.js";
import { INITIAL_PASSWORD_FILE } from "./db/seed/admin.js";
import { DEFAULT_RECORDED_LIMITS, type RecordedLimits } from "./modules/sources/recorded/service.js";
import type { SourceAdapterEntry } from "./modules/sources/source-provider.js";
import { accountServices } from "./wiring/accounts.js";
import { catalogServices } from "./wiring/catalog.js";
import { coreServices } from "./wiring/core.js";
import { searchServices } from "./wiring/search.js";
import { sourceServices } from "./wiring/sources.js";

export interface ServiceOptions {
  db: AppDatabase;
  logger: Pick<DbLogger, "warn" | "error" | "info" | "debug">;
  /** Absolute site address for sitemaps and robots.txt. */
  publicUrl: string;
  /** Milliseconds between background chart rebuilds (0 = none). */
  chartsRebuildIntervalMs: number;
  /** The change-event bus; default in-process, or relayed through `redis`. */
  bus?: EventBus;
  /**
   * REDIS_URL's link (ADR 0039): change events relayed to every instance, and the ephemeral store
   * and view ledger kept in Redis. Without it all of them live in this process.
   */
  redis?: RedisLink;
  /** The server's clock (tests move it); default the system's. */
  clock?: Clock;
  /** Account mail: SMTP when `smtpUrl` is set, else the outbox (mirrored to `outboxFile`). */
  mail?: { smtpUrl?: string; from: MailFrom; outboxFile?: string };
  /** Where uploads live (DATA_DIR/uploads): avatars go under avatars/. */
  uploadsDir?: string;
  /**
   * The built-in external sites' adapters (issue 11; `createSourceAdapters` in
   * modules/sources/registry.ts: main.ts hands all three; tests fixtures or none). Those whose
   * `source_sites` row is switched off are not used (ADR 0047); the generic sources configured in
   * `source_sites` join them while the site runs (ADR 0026). Default none.
   */
  sourceAdapters?: SourceAdapterEntry[];
  /** Circuit breaker settings of the sources (default 5 failures, 30 s cool-down). */
  sourceBreaker?: Pick<HealthOptions, "failureThreshold" | "coolDownMs">;
  /** Tests only: fixture addresses the sources configured in `source_sites` may reach. */
  sourceNetwork?: SourceNetwork;
  /** Source plugins' network allowances and sandbox limits (OUTBOUND_ALLOW; tests). */
  plugins?: PluginSettings;
  /** Collection (ADR 0023): runner poll and schedule tick (0 = never runs here), job lease. */
  collect?: { intervalMs: number; leaseMs: number };
  /** The dashboard's system facts: which engine runs, and DATA_DIR (its size is shown). */
  system?: { engine: DatabaseEngine; dataDir: string; queriesOnThisThread?: boolean };
  /** Benchmarks only: other limits for kept search answers (`freshMs: 0`: every search asks). */
  searchAnswerLimits?: SearchAnswersOptions["limits"];
  /** Who runs the work that must run once across instances (ADR 0040); default: this one. */
  lease?: LeaderLease;
  /** Source canaries (ADR 0049): milliseconds between rounds (0 = none), and who keeps a drifted answer. */
  canary?: { intervalMs: number; onDrift?: OnDrift; stepTimeoutMs?: number };
  /** Recorded answers kept per source (issue 22; tests lower them). */
  recordedLimits?: RecordedLimits;
}

/**
 * Every service of the app, built once (the one wiring, ADR 0016, 0058). HTTP routes and SSR
 * loaders (through the React Router load context) share them, so pages never call our own API
 * over HTTP.
 *
 * Built by area (server/wiring/), each from the options and the areas built before it, passed
 * as arguments: no area reaches a value built after it, so the order below is the order of the
 * dependencies: one written out of order does not compile, and `wiring/order.test.ts` catches a
 * closure reaching further down. The cycles (the source directory and the plugins, in
 * wiring/sources.ts; the plugins' runtime and back office, in modules/plugins/wiring.ts) are said
 * where they are (`lib/late.ts`). Nothing of an app lives in a module: two apps in one process
 * share no state (`two-apps.test.ts`).
 *
 * Writes to the catalogue go through `writes`, which publishes change events on `bus`; the
 * registry `caches` follows the bus and drops every kept value carrying one of the event's tags
 * (lib/cache-tags.ts, ADR 0054). Caches are made through `caches`, which lists them all with
 * their counters.
 */
export function createServices({
  db,
  logger,
  publicUrl,
  chartsRebuildIntervalMs,
  bus,
  redis,
  clock = systemClock,
  mail = { from: "no-reply@localhost" },
  uploadsDir = "./data/uploads",
  sourceAdapters = [],
  sourceBreaker,
  sourceNetwork,
  plugins: pluginSettings,
  collect = { intervalMs: 0, leaseMs: 120_000 },
  system = { engine: "postgres", dataDir: "./data" },
  searchAnswerLimits,
  lease = soleLease(),
  canary = { intervalMs: 0 },
  recordedLimits = DEFAULT_RECORDED_LIMITS,
}: ServiceOptions) {
  // The bus and the kept values following it, writes, audit, settings, the ephemeral store.
  const { onResync, ...core } = coreServices({ db, logger, bus, redis, clock, lease });
  // The external sites: directory, health, breakers, plugins, recorded answers.
  const sources = sourceServices({
    db,
    logger,
    redis,
    core,
    onResync,
    sourceAdapters,
    sourceBreaker,
    sourceNetwork,
    pluginSettings,
    recordedLimits,
  });
  // What visitors read of the catalogue, and the back office's edits of it.
  const catalog = catalogServices({ db, logger, redis, core, sources, publicUrl, chartsRebuildIntervalMs, uploadsDir });
  // Search, collection, canaries, replays, play of a site's item, the dashboard.
  const searching = searchServices({
    db,
    logger,
    core,
    sources,
    charts: catalog.charts,
    sourceNetwork,
    collect,
    canary,
    system,
    searchAnswerLimits,
  });
  // Visitors, sessions, accounts and mail, libraries, plays, the back office's accounts.
  const accounts = accountServices({ db, logger, core, publicUrl, mail, uploadsDir, initialPasswordFile: path.join(system.dataDir, INITIAL_PASSWORD_FILE) });
  // CSV exports of the back office's tables, over each table's own query (ADR 0065).
  const adminExport = adminExportService({
    audit: core.audit,
    sources: {
      suites: (q) => catalog.suiteList.source(q),
      users: (q) => accounts.adminUsers.source(q),
      collected: (q) => searching.collected.source(q),
      audit: (q) => accounts.auditTrail.source(q),
    },
  });
  // One flat object, as routes, loaders and tests use it.
  return {
    ...core,
    /** The Redis relay of `bus` when REDIS_URL is set: the app starts and closes it. */
    relay: core.relay,
    breakers: sources.breakers,
    sourceDirectory: sources.sourceDirectory,
    plugins: sources.plugins,
    recorded: sources.recorded,
    ...catalog,
    ...searching,
    ...accounts,
    adminExport,
  };
}

export type AppServices = ReturnType<typeof createServices>;
