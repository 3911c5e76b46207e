import type { AppDatabase, DbLogger } from "./db/open.js";
import type { DatabaseEngine } from "./db/types.js";
import { type EventBus, inProcessBus } from "./events/bus.js";
import { type RelayedBus, redisRelayedBus } from "./events/redis-bus.js";
import { type Cache, CacheRegistry } from "./lib/cache.js";
import { byMinute } from "./lib/china-day.js";
import { pinyinOfRun } from "./modules/search/search-text.js";
import { followEvents } from "./lib/cache-tags.js";
import { type LeaderLease, soleLease } from "./lib/leases.js";
import { memoryEphemeralStore } from "./lib/ephemeral-store.js";
import type { RedisLink } from "./lib/redis.js";
import { redisEphemeralStore } from "./lib/redis-ephemeral-store.js";
import { redisViewLedger } from "./modules/catalog/view-ledger.js";
import { emailCodeService } from "./modules/accounts/email-code-service.js";
import { authService } from "./modules/accounts/auth-service.js";
import { captchaService } from "./modules/accounts/captcha.js";
import { sessionService } from "./modules/accounts/session-service.js";
import { categoryAnswers } from "./modules/catalog/category-answers.js";
import { categoryService } from "./modules/catalog/category-service.js";
import { navigationService } from "./modules/catalog/navigation-service.js";
import { suiteService } from "./modules/catalog/suite-service.js";
import { viewBuffer } from "./modules/catalog/view-buffer.js";
import { catalogueWriteService } from "./modules/catalogue-write/service.js";
import { collectedService } from "./modules/collected/service.js";
import { suiteListService } from "./modules/suite-list/service.js";
import { createChartScheduler } from "./modules/charts/scheduler.js";
import { chartsService } from "./modules/charts/service.js";
import { createCollector } from "./modules/collect/service.js";
import { dailyCounterBuffer } from "./modules/dashboard/counter-buffer.js";
import { dashboardService } from "./modules/dashboard/service.js";
import { homeService } from "./modules/home/service.js";
import { libraryService } from "./modules/library/service.js";
import { createMailer } from "./modules/mail/mailer.js";
import { outboxMirror } from "./modules/mail/outbox.js";
import { avatarService } from "./modules/profile/avatar-service.js";
import { profileService } from "./modules/profile/profile-service.js";
import { playsService } from "./modules/plays/service.js";
import { localProvider } from "./modules/search/local-provider.js";
import { searchService } from "./modules/search/service.js";
import { searchAnswers, type SearchAnswersOptions } from "./modules/search/answers.js";
import { seoService } from "./modules/seo/service.js";
import { externalSearch } from "./modules/sources/search-sources.js";
import { startCosts } from "./modules/search/places.js";
import { sharedBreakers } from "./modules/sources/shared-breakers.js";
import type { HealthOptions } from "./modules/sources/health.js";
import { sourcePlayService } from "./modules/sources/play-service.js";
import type { SourceAdapterEntry } from "./modules/sources/source-provider.js";
import { auditService } from "./modules/audit/service.js";
import { adminCommentService } from "./modules/admin-comments/service.js";
import { adminUserService } from "./modules/admin-users/service.js";
import { auditTrailService } from "./modules/audit/table.js";
import { adminAccountService } from "./modules/admin-accounts/admin-service.js";
import { adminAuthService } from "./modules/admin-accounts/auth-service.js";
import { suiteAdminService } from "./modules/suite-admin/service.js";
import { liveSourceDirectory } from "./modules/sources/directory.js";
import { BROWSER_USER_AGENT } from "./modules/sources/fetch/user-agent.js";
import type { SourceNetwork } from "./modules/sources/generic-source.js";
import { sourceAdminService } from "./modules/sources/admin-service.js";
import { canaryScheduler, canaryService } from "./modules/sources/canary/service.js";
import { CANARY_KEYWORDS, type OnDrift } from "./modules/sources/canary/checks.js";
import { withCanaries } from "./modules/sources/canary/view.js";
import { pluginServices, type PluginSettings } from "./modules/plugins/wiring.js";
import { replayService } from "./modules/sources/recorded/replay.js";
import { DEFAULT_RECORDED_LIMITS, recordedService, type RecordedLimits } from "./modules/sources/recorded/service.js";
import { type Clock, systemClock } from "./lib/clock.js";
import { visitorService } from "./modules/visitors/service.js";
import { blockAdminService } from "./modules/admin-content/block-admin.js";
import { categoryAdminService } from "./modules/admin-content/category-admin.js";
import { siteSettingsService } from "./modules/site-settings/service.js";

/** The plugin call a canary's step made, so its kept answer replays the same search (ADR 0051). */
function driftCall(step: string) {
  if (step === "search-ascii") return { method: "search", args: [CANARY_KEYWORDS.ascii, 1, "music"] };
  if (step === "search-chinese") return { method: "search", args: [CANARY_KEYWORDS.chinese, 1, "music"] };
  return null;
}

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
  mail?: { smtpUrl?: string; from: string; outboxFile?: string };
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
  system?: { engine: DatabaseEngine; dataDir: string };
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
 * Every service of the app, built once (the one wiring, ADR 0016). HTTP routes and SSR loaders
 * (through the React Router load context) share them, so pages never call our own API over HTTP.
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
  bus: givenBus,
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
  const onListenerError = (err: unknown, event: { type: string }) => logger.error({ err, event: event.type }, "change listener failed");
  // Events may have been missed while Redis was away: every kept answer goes, the sources are re-read.
  const resync = () => {
    caches.clearAll();
    void sourceDirectory.refresh().catch((err: unknown) => logger.warn({ err }, "sources not re-read"));
  };
  const relay: RelayedBus | undefined =
    redis && !givenBus ? redisRelayedBus({ link: redis, onListenerError, onResync: resync, logger }) : undefined;
  const bus = givenBus ?? relay ?? inProcessBus(onListenerError);
  // A kept answer whose background refresh fails is still served: say so in the log.
  const caches = new CacheRegistry({ onRefreshError: (key, err) => logger.warn({ err, key }, "kept answer refresh failed") });
  // The first listener: every cache drops by the event's tags (cache-tags.ts) before any other
  // listener (the pre-render) runs, here and on every instance the event is relayed to.
  followEvents(caches, bus);
  // Memos of pure computations (module-level, no data in them): listed for their counters.
  caches.adopt(pinyinOfRun as Cache<unknown>);
  caches.adopt(byMinute as Cache<unknown>);
  const writes = catalogueWriteService(db, bus);
  const audit = auditService(db);
  const siteSettings = siteSettingsService(db, { caches, bus, audit });
  // The sources in use: the given built-ins plus those configured in source_sites, rebuilt on
  // every `sources` event (ADR 0026). Search and play ask it at each use.
  // Answers of the source sites kept for replays (issue 22): canaries and tries keep them.
  const recorded = recordedService(db, recordedLimits);
  // Source plugins (issue 21): loaded in the sandbox when enabled, listed by the directory.
  const plugins = pluginServices({
    db,
    writes,
    audit,
    logger,
    recorded,
    health: () => sources.health,
    directory: () => sourceDirectory,
    ...(pluginSettings ? { settings: pluginSettings } : {}),
  });
  const sourceDirectory = liveSourceDirectory({
    db,
    bus,
    builtins: sourceAdapters,
    // A browser's, as for the built-ins (ADR 0046); a config's `headers` may set its own.
    userAgent: BROWSER_USER_AGENT,
    logger,
    network: sourceNetwork,
    plugins: (rows) => plugins.entries(rows),
  });
  const charts = chartsService(db, { caches, bus, clock, sources: sourceDirectory });
  const categories = categoryService(db, { charts, caches, settings: siteSettings });
  const views = viewBuffer(db, writes, redis ? redisViewLedger(redis) : undefined);
  // Captcha answers, login failures, code throttles: shared by every instance when Redis is set.
  const ephemeral = redis ? redisEphemeralStore(redis) : memoryEphemeralStore({ clock });
  const sessions = sessionService(db, clock);
  const mailer = createMailer({
    smtpUrl: mail.smtpUrl,
    from: mail.from,
    db,
    logger,
    clock,
    mirror: mail.outboxFile ? outboxMirror(mail.outboxFile) : undefined,
  });
  const emailCodes = emailCodeService(db, { mailer, ephemeral, clock, publicUrl, logger });
  const captcha = captchaService(ephemeral);
  const local = localProvider(db, { engine: system.engine });
  // A dead site's open breaker is known to every instance (ADR 0039).
  const breakers = redis ? sharedBreakers(redis) : undefined;
  const sources = externalSearch({ directory: sourceDirectory, clock, logger, breaker: sourceBreaker, onBreaker: breakers?.publish });
  breakers?.attach(sources.health);
  const collector = createCollector({
    db,
    directory: sourceDirectory,
    health: sources.health,
    logger,
    ...collect,
    leader: () => lease.check(),
    audit,
    // A stored chart replaces the site's board on the charts panel: drop every kept copy (ADR 0025).
    onPage: (page) => {
      if (page.unitType === "chart" && page.items > 0 && page.error === null) charts.sourceChartsChanged(page.source);
    },
  });
  const canaries = canaryService(db, {
    directory: sourceDirectory,
    audit,
    logger,
    now: () => clock().getTime(),
    planFor: (source) => collector.planFor(source),
    // A drifted answer is kept for replay (ADR 0051), with the search it answered where there was one.
    onDrift: async (source, step, answer) => {
      await canary.onDrift?.(source, step, answer);
      await recorded.keep(source, { ...answer, reason: `巡检 ${step}：页面改版`, call: driftCall(step) });
    },
    stepTimeoutMs: canary.stepTimeoutMs,
  });
  const search = searchService(() => [local, ...sources.providers()], {
    onProviderError: (source, err) => logger.warn({ err, source }, "search provider failed"),
    // The fastest place of a hit found on several sites first: by the sources' health now (ADR 0052).
    startCost: () => startCosts(sources.health.list()),
  });
  return {
    bus,
    /** The Redis relay of `bus` when REDIS_URL is set: the app starts and closes it. */
    relay,
    breakers,
    clock,
    leader: lease,
    ephemeral,
    caches,
    writes,
    audit,
    charts,
    chartScheduler: createChartScheduler({ charts, intervalMs: chartsRebuildIntervalMs, logger, leader: () => lease.check() }),
    categories,
    categoryAnswers: categoryAnswers(categories, { caches }),
    home: homeService(db, { charts, caches, settings: siteSettings }),
    navigation: navigationService(db, { caches }),
    views,
    suites: suiteService(db, { caches, views, now: clock }),
    seo: seoService(db, { publicUrl, caches }),
    search,
    // Kept, serialized and compressed once per normalised query; dropped by change events (ADR 0034).
    searchAnswers: searchAnswers(search, {
      caches,
      now: () => clock().getTime(),
      onSourcesChange: (listener) => sourceDirectory.onChange(listener),
      limits: searchAnswerLimits,
    }),
    sourceHealth: sources.health,
    // Per-day counts written in batches (searches), and the dashboard reading them (ADR 0032).
    counters: dailyCounterBuffer(db, clock),
    dashboard: dashboardService(db, { ...system, clock, caches, sourceHealth: () => withCanaries(sources.health.list(), canaries) }),
    sourceDirectory,
    collected: collectedService(db, { writes, sourceDirectory, logger, audit }),
    suiteList: suiteListService(db, { writes, audit, caches }),
    sourcePlay: sourcePlayService(sourceDirectory, { now: () => clock().getTime(), health: sources.health, db, caches }),
    adminUsers: adminUserService(db, { audit, sessions }),
    adminComments: adminCommentService(db, { writes, audit }),
    sourceAdmin: sourceAdminService(db, { writes, audit, directory: sourceDirectory, network: sourceNetwork }),
    plugins,
    collector,
    canaries,
    canaryScheduler: canaryScheduler({ canaries, intervalMs: canary.intervalMs, leader: () => lease.check(), logger }),
    recorded,
    replay: replayService(db, { recorded, runtime: plugins.runtime }),
    visitors: visitorService(db),
    sessions,
    captcha,
    auth: authService(db, { sessions, captcha, ephemeral }),
    plays: playsService(db, clock),
    library: libraryService(db, { writes, ephemeral, clock }),
    mailer,
    emailCodes,
    profile: profileService(db, { codes: emailCodes, sessions, ephemeral }),
    avatars: avatarService(db, { uploadsDir, logger }),
    // The back office's accounts and audit trail (issue 12, ADR 0027).
    adminAuth: adminAuthService(db, { sessions, captcha, ephemeral, audit, clock }),
    adminAccounts: adminAccountService(db, { audit }),
    auditTrail: auditTrailService(db),
    suiteAdmin: suiteAdminService(db, { writes, audit }),
    siteSettings,
    categoryAdmin: categoryAdminService(db, { writes, audit }),
    blockAdmin: blockAdminService(db, { writes, audit, uploadsDir, logger }),
  };
}

export type AppServices = ReturnType<typeof createServices>;
