import { mkdir } from "node:fs/promises";
import { buildApp } from "./app.js";
import { loadConfig } from "./config.js";
import { openDatabase } from "./db/open.js";
import { warmRequestPath } from "./web/warm-up.js";
import { lastRequestTracker, schedulePgliteMaintenance } from "./db/pglite-maintenance.js";
import { startControlSocket } from "./modules/backup/control-socket.js";
import { ensureAdminAccount, seedDemoCatalogue } from "./db/seed/index.js";
import { requestScopedLogger } from "./http/request-scope.js";
import { createLogger, logFormatFor } from "./lib/log-output.js";
import { prepareDemoMedia } from "./demo-media/prepare-demo-media.js";
import { gracefulShutdown } from "./http/graceful-shutdown.js";
import { onlyOnLeader } from "./lib/leases.js";
import { createSourceAdapters } from "./modules/sources/registry.js";
import { applyExternalSources } from "./modules/sources/builtin-switches.js";
import { sweepOrphanUploads } from "./modules/uploads/orphan-sweep.js";
import { scheduleSweeps } from "./lib/sweeps.js";
import { startupLine } from "./startup-line.js";

/** config -> database -> demo data -> app -> listen; SIGTERM shuts down gracefully (graceful-shutdown.ts). */
async function main() {
  const config = loadConfig();
  // Readable lines on a terminal, JSON when piped or under a process manager (LOG_FORMAT overrides).
  const logFormat = logFormatFor(config.logFormat);
  const logger = createLogger({ level: config.logLevel, format: logFormat });

  await mkdir(config.mediaDir, { recursive: true });
  await mkdir(config.uploadsDir, { recursive: true });
  // A server opens its whole PostgreSQL pool at start: the first requests find it ready (ADR 0045).
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, pgliteSharedBuffers: config.pgliteSharedBuffers, pgliteThread: config.pgliteThread, pglitePrepared: config.pglitePrepared, logger, openPool: true });

  // Charts are aggregated in the background (at start-up, then every CHARTS_REBUILD_INTERVAL_MS).
  // The built-in external sites, each with its own bounded outbound client, closed on shutdown.
  // All three are always built: `source_sites.enabled` (the back office's switch, seeded from
  // EXTERNAL_SOURCES below) decides which ones search, play and collect use (ADR 0047).
  // Their lines carry the id of the request they work for (ADR 0044).
  // Each asks with its own User-Agent (a browser's: registry.ts, ADR 0046).
  const external = createSourceAdapters({ logger: requestScopedLogger(logger) });
  const app = await buildApp({ config, database, logger, web: true, sourceAdapters: external.sources });
  await applyExternalSources(app.services, config.externalSources, logger);
  // The first-start password: boxed on a terminal; never into a JSON log (kept and shipped), a 0600 file instead.
  await ensureAdminAccount(database, logger, logFormat === "pretty" ? { to: "terminal" } : { to: "file", dataDir: config.dataDir });
  if (config.seedDemo) {
    const media = await prepareDemoMedia(config.dataDir);
    await seedDemoCatalogue(database, { media, logger, writes: app.services.writes });
  }
  // Embedded database only (ADR 0042): `npm run backup` asks this process for a consistent copy
  // through a 0600 Unix socket in DATA_DIR; VACUUM (ANALYZE) on a schedule, since PGlite has no autovacuum.
  const control = await startControlSocket({ dataDir: config.dataDir, database, logger });
  const maintenance =
    database.engine === "pglite" && config.pgliteVacuumIntervalMs > 0
      ? schedulePgliteMaintenance({ db: database.db, intervalMs: config.pgliteVacuumIntervalMs, logger, lastRequestAt: lastRequestTracker(app.server) })
      : null;
  const shutdown = gracefulShutdown({
    app,
    logger,
    timeoutMs: config.shutdownTimeoutMs,
    streamGraceMs: config.shutdownStreamGraceMs,
    afterClose: async () => {
      await maintenance?.stop();
      await control?.close();
      external.close();
      await database.close();
    },
  });
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  await app.ready();
  // Kept pages (production): the request path runs a hundred times before the first visitor's (ADR 0045).
  if (!config.dev && config.pageCacheMaxBytes > 0) logger.debug(await warmRequestPath(app), "request path warmed up");
  await app.listen({ host: config.host, port: config.port });
  // Collection (ADR 0023): this instance runs collect jobs and queues scheduled ones.
  // Sources may also be configured in the database (generic adapters): the runner only takes
  // jobs of sources this instance has, so with none it only looks now and then.
  if (config.collectIntervalMs > 0) app.services.collector.startBackground();
  // Uploaded files that no suite or block names (a form never saved), older than a day; once
  // across instances (the lease holder: instances share DATA_DIR/uploads, ADR 0040).
  const sweep = () => sweepOrphanUploads({ db: database.db, uploadsDir: config.uploadsDir, logger });
  scheduleSweeps("upload sweep", onlyOnLeader(app.services.leader, sweep), config.uploadSweepIntervalMs, logger);
  // Expired login sessions, as often and on the same instance (lookups ignore them; the rows stayed).
  const expiredSessions = async () => {
    const deleted = await app.services.sessions.deleteExpired();
    if (deleted > 0) logger.info({ deleted }, "expired sessions deleted");
  };
  scheduleSweeps("expired-session sweep", onlyOnLeader(app.services.leader, expiredSessions), config.uploadSweepIntervalMs, logger);
  // Suites in the recycle bin longer than 30 days, purged for good (ADR 0065), as often and on the same instance.
  const binnedSuites = async () => {
    const purged = await app.services.suiteList.purgeExpired();
    if (purged > 0) logger.info({ purged }, "suites purged from the recycle bin");
  };
  scheduleSweeps("recycle-bin purge", onlyOnLeader(app.services.leader, binnedSuites), config.uploadSweepIntervalMs, logger);
  if (config.outboundAllow.length > 0) logger.warn({ outboundAllow: config.outboundAllow }, "OUTBOUND_ALLOW: plugins may reach these non-public addresses");
  logger.info(await startupLine(app.services.siteSettings, config.publicUrl));
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
