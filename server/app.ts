import path from "node:path";
import compress from "@fastify/compress";
import cookie from "@fastify/cookie";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import { validatorCompiler } from "fastify-type-provider-zod";
import type { Config } from "./config.js";
import type { DatabaseHandle } from "./db/open.js";
import { authPlugin } from "./http/auth.js";
import { registerApiDocs } from "./http/docs.js";
import { registerErrorHandling } from "./http/error-handler.js";
import { answerSerializerCompiler } from "./http/encode-answer.js";
import { type CheckedRoute, registerAnswerCheck } from "./http/answer-check.js";
import { type LongStreams, longStreams } from "./http/graceful-shutdown.js";
import { clientAddressOf, proxyTrust, requestIdOptions } from "./http/request-id.js";
import { registerRequestScope, requestScopedLogger } from "./http/request-scope.js";
import { registerMetrics } from "./modules/metrics/index.js";
import { registerSecurityHeaders } from "./http/security.js";
import { BODY_LIMITS } from "./http/body-limits.js";
import { registerHostCheck } from "./http/early-errors.js";
import { registerUnstorableTextGuard } from "./http/input-guards.js";
import { frontDoor, type FrontDoor } from "./http/front-door.js";
import { trackRequestsInFlight } from "./http/in-flight.js";
import { registerRateLimits } from "./http/rate-limits.js";
import { serverOptions } from "./http/server-options.js";
import type { Clock } from "./lib/clock.js";
import { createRedisLink } from "./lib/redis.js";
import { leaderLease } from "./lib/leases.js";
import { authRoutes } from "./modules/accounts/auth-routes.js";
import { accountRoutes } from "./modules/accounts/routes.js";
import { adminSessionRoutes } from "./modules/admin/session-routes.js";
import { adminAccountRoutes } from "./modules/admin-accounts/routes.js";
import { catalogRoutes } from "./modules/catalog/routes.js";
import { collectedRoutes } from "./modules/collected/routes.js";
import { adminCommentRoutes } from "./modules/admin-comments/routes.js";
import { adminUserRoutes } from "./modules/admin-users/routes.js";
import { suiteListRoutes } from "./modules/suite-list/routes.js";
import { adminExportRoutes } from "./modules/admin-export/routes.js";
import { chartRoutes } from "./modules/charts/routes.js";
import { collectRoutes } from "./modules/collect/routes.js";
import { dashboardRoutes } from "./modules/dashboard/routes.js";
import { homeRoutes } from "./modules/home/routes.js";
import { healthRoutes } from "./modules/health/routes.js";
import { libraryRoutes } from "./modules/library/routes.js";
import { economyRoutes } from "./modules/economy/routes.js";
import { OUTBOX_MIRROR_FILE } from "./modules/mail/outbox.js";
import { mediaRoutes } from "./modules/media/routes.js";
import { playRoutes } from "./modules/plays/routes.js";
import { profileRoutes } from "./modules/profile/routes.js";
import { searchRoutes } from "./modules/search/routes.js";
import { sourceAdminRoutes } from "./modules/sources/admin-routes.js";
import { pluginRoutes } from "./modules/plugins/routes.js";
import { recordedRoutes } from "./modules/sources/recorded/routes.js";
import { sourceHealthRoutes } from "./modules/sources/health-routes.js";
import { sourcePlayRoutes } from "./modules/sources/play-routes.js";
import { seoRoutes } from "./modules/seo/routes.js";
import { suiteAdminRoutes } from "./modules/suite-admin/routes.js";
import { adminContentRoutes } from "./modules/admin-content/routes.js";
import { siteSettingsRoutes } from "./modules/site-settings/routes.js";
import { pwaRoutes } from "./modules/pwa/routes.js";
import { type AppServices, createServices, type ServiceOptions } from "./services.js";
import { RequestLog } from "./http/request-log.js";
import { registerWeb } from "./web/index.js";
import { requestLoadContext } from "./web/request-context.js";

export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  /** A pino logger, or false for none (tests keep their output readable); default: pino at LOG_LEVEL. */
  logger?: FastifyBaseLogger | false;
  /** Serve the React site too (production build or Vite in development). API tests leave it off. */
  web?: boolean;
  /** The server's clock (play reports' 30 s rule); tests move it. Default: the system's. */
  clock?: Clock;
  /** External DJ sites searched beside the catalogue (`createSourceAdapters`); default none. */
  sourceAdapters?: ServiceOptions["sourceAdapters"];
  sourceBreaker?: ServiceOptions["sourceBreaker"];
  /** Tests only: fixture addresses the sources configured in `source_sites` may reach. */
  sourceNetwork?: ServiceOptions["sourceNetwork"];
  /** Tests only: the plugins' fixture addresses, sandbox limits and resolver. */
  plugins?: ServiceOptions["plugins"];
  /** Tests only: who keeps drifted answers, a shorter step timeout (the interval is CANARY_INTERVAL_MS). */
  canary?: Omit<NonNullable<ServiceOptions["canary"]>, "intervalMs">;
  /** Benchmarks only: other limits for kept search answers. */
  searchAnswerLimits?: ServiceOptions["searchAnswerLimits"];
  /** Tests only: smaller bounds of recorded answers per source. */
  recordedLimits?: ServiceOptions["recordedLimits"];
  /** Tests: check every JSON answer against its route's response schema, record the routes (answer-check.ts). */
  checkAnswers?: boolean;
}

declare module "fastify" {
  interface FastifyInstance {
    deps: AppDeps;
    services: AppServices;
    /** Media responses still streaming: shutdown cuts them after their grace (graceful-shutdown.ts). */
    longStreams: LongStreams;
    /** The routes registered, recorded when `checkAnswers` is on (else empty). */
    checkedRoutes: CheckedRoute[];
    /** The HTTP server's lane in front of Fastify (the kept pages', ADR 0069). */
    frontDoor: FrontDoor;
  }
}

/** Builds the whole application. main.ts and every test build it this way. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const logging =
    deps.logger === false
      ? { logger: false }
      : deps.logger
        ? { loggerInstance: deps.logger }
        : { logger: { level: config.logLevel } };
  const trust = proxyTrust(config.trustProxy);
  const requestIds = requestIdOptions(trust);
  const door = frontDoor();
  const app = Fastify({
    ...logging,
    trustProxy: trust.option,
    // Request ids (ADR 0044): X-Request-Id only from a trusted proxy, else a new one.
    ...requestIds,
    // Fastify's HTTP server with the kept pages' lane in front of it (ADR 0069).
    serverFactory: door.serverFactory,
    // Requests must arrive in bounded time; answers (hour-long mixes) stream as long as they take.
    ...serverOptions(config),
    // While closing, a request on an open keep-alive connection is answered (with Connection:
    // close), not refused with a 503 a proxy could not retry for a POST (graceful-shutdown.ts).
    return503OnClosing: false,
    // Routes that need more say so (server/http/body-limits.ts, ADR 0043).
    bodyLimit: BODY_LIMITS.default,
    // One access line a request (request-log.ts, ADR 0067).
    logController: new RequestLog(),
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 500 },
    // Fastify gives each plugin 10 s to start; loading the web build on a busy 2-core machine
    // took longer (an e2e start failed at load ~9). A start that slow is still a start.
    pluginTimeout: 60_000,
  });
  // Several instances share state through Redis (ADR 0039); it reconnects by itself if it is away.
  const redis = config.redisUrl
    ? createRedisLink(config.redisUrl, config.redisPrefix, (err) => app.log.warn({ err: err.message }, "redis connection"))
    : undefined;
  if (redis && !(await redis.connect())) app.log.warn("redis is not answering: starting without it, reconnecting");
  const services = createServices({
    db: deps.database.db,
    redis,
    // Services' lines carry the request id while they work for a request (ADR 0044).
    logger: requestScopedLogger(app.log),
    publicUrl: config.publicUrl,
    chartsRebuildIntervalMs: config.chartsRebuildIntervalMs,
    clock: deps.clock,
    sourceAdapters: deps.sourceAdapters,
    sourceBreaker: deps.sourceBreaker,
    sourceNetwork: deps.sourceNetwork,
    plugins: { workers: config.pluginWorkers, ...deps.plugins, allowAddresses: [...config.outboundAllow, ...(deps.plugins?.allowAddresses ?? [])] },
    collect: { intervalMs: config.collectIntervalMs, leaseMs: config.collectLeaseMs },
    canary: { intervalMs: config.canaryIntervalMs, ...deps.canary },
    // Without SMTP the kept mails are mirrored in DATA_DIR for `npm run outbox` (ADR 0018).
    mail: { smtpUrl: config.smtpUrl, from: config.mailFrom, outboxFile: path.join(config.dataDir, OUTBOX_MIRROR_FILE) },
    uploadsDir: config.uploadsDir,
    system: { engine: deps.database.engine, dataDir: config.dataDir, queriesOnThisThread: deps.database.queriesOnThisThread },
    searchAnswerLimits: deps.searchAnswerLimits,
    ...(deps.recordedLimits ? { recordedLimits: deps.recordedLimits } : {}),
    // Singleton background work runs on the holder only (ADR 0040); taken at its first check.
    lease: leaderLease(deps.database, app.log),
  });
  try {
    await services.relay?.start();
    await services.visitors.load();
    // The sources configured in source_sites join the built-ins before the first request.
    await services.sourceDirectory.refresh();
    await services.sourcePlay.load();
  } catch (err) {
    // A failed start must not leave Redis reconnecting forever in a process that should exit.
    await redis?.close();
    throw err;
  }
  app.decorate("deps", deps);
  app.decorate("frontDoor", door);
  app.decorate("services", services);
  app.decorate("longStreams", longStreams());
  // Charts are aggregated in the background: once the app is ready, then every interval.
  app.addHook("onReady", async () => {
    if (config.chartsRebuildIntervalMs > 0) services.chartScheduler.start();
    // Source canaries (ADR 0049): on the lease's holder, every CANARY_INTERVAL_MS (0: never).
    services.canaryScheduler.start();
  });
  // Before the database closes: the running rebuild ends, and the last batch of views is written.
  app.addHook("onClose", async () => {
    await services.chartScheduler.stop();
    await services.canaryScheduler.stop();
    // The collect runner stores its page in flight and gives its job back (main.ts starts it).
    await services.collector.stop();
    // Free the lease now rather than when the pool closes: a survivor's next tick takes it.
    await services.leader.close();
    await services.suites.flushViews();
    await services.counters.flush().catch((err) => app.log.warn({ err }, "daily counters not written"));
    services.mailer.close();
    services.sourceDirectory.close();
    await services.plugins.close();
    services.relay?.close();
    services.breakers?.close();
    await redis?.close();
  });
  // Before every route: the pages' background pre-render waits for a moment without requests.
  const requestsInFlight = deps.web ? trackRequestsInFlight(app) : undefined;
  app.setValidatorCompiler(validatorCompiler);
  // Every JSON answer is encoded through a schema (ADR 0057): the route's for its success,
  // the error envelope's for errors (error-handler.ts).
  app.setSerializerCompiler(answerSerializerCompiler);
  // Before compression (its onSend comes later) and before any route is registered.
  app.decorate("checkedRoutes", deps.checkAnswers ? registerAnswerCheck(app) : []);
  registerErrorHandling(app);
  // First hook of every request: its X-Request-Id header and its scope (request-scope.ts).
  registerRequestScope(app);
  // Before any route: every route declares its access level and gets its guard (ADR 0015).
  await app.register(authPlugin, { sessions: services.sessions });
  // GET /metrics (not public) and the per-route request histogram's hook (ADR 0044).
  registerMetrics(app, { services, database: deps.database, metrics: config.metrics });

  await registerSecurityHeaders(app, { dev: config.dev });
  // HTML, JSON and scripts; media types are not compressible and keep their Range semantics.
  await app.register(compress, { threshold: 1024, encodings: ["br", "gzip"] });
  await app.register(cookie);
  registerHostCheck(app);
  registerUnstorableTextGuard(app);
  await registerRateLimits(app, redis);
  await registerApiDocs(app, { siteTitle: services.siteSettings.title });

  await app.register(healthRoutes, { database: deps.database });
  await app.register(accountRoutes, { services });
  await app.register(authRoutes, { services });
  await app.register(adminSessionRoutes, { services });
  await app.register(adminAccountRoutes, { services });
  await app.register(catalogRoutes, { services });
  await app.register(chartRoutes, { services });
  await app.register(homeRoutes, { services });
  await app.register(seoRoutes, { services });
  await app.register(searchRoutes, { services });
  await app.register(sourceHealthRoutes, { services });
  await app.register(dashboardRoutes, { services });
  await app.register(sourceAdminRoutes, { services });
  await app.register(pluginRoutes, { services });
  await app.register(recordedRoutes, { services });
  await app.register(collectRoutes, { services });
  await app.register(sourcePlayRoutes, { services });
  await app.register(collectedRoutes, { services });
  await app.register(adminUserRoutes, { services });
  await app.register(adminCommentRoutes, { services });
  await app.register(suiteAdminRoutes, { services, uploadsDir: config.uploadsDir });
  await app.register(adminContentRoutes, { services });
  await app.register(siteSettingsRoutes, { services });
  await app.register(pwaRoutes, { services });
  await app.register(suiteListRoutes, { services });
  await app.register(adminExportRoutes, { services });
  await app.register(playRoutes, { services });
  await app.register(libraryRoutes, { services });
  await app.register(economyRoutes, { services });
  await app.register(profileRoutes, { services });
  await app.register(mediaRoutes, { mediaDir: config.mediaDir, uploadsDir: config.uploadsDir, streams: app.longStreams });

  if (deps.web) {
    await registerWeb(app, {
      mode: config.dev ? "development" : "production",
      getLoadContext: requestLoadContext(services),
      keep:
        config.pageCacheMaxBytes > 0
          ? {
              services,
              maxBytes: config.pageCacheMaxBytes,
              prerender: { ...config.prerender, requests: requestsInFlight! },
              lane: config.keptLane ? { door, requestId: requestIds.genReqId, clientAddress: clientAddressOf(trust) } : undefined,
            }
          : undefined,
    });
  }
  return app;
}
