import { mkdir } from "node:fs/promises";
import pino from "pino";
import { buildApp } from "./app.js";
import { loadConfig } from "./config.js";
import { openDatabase } from "./db/open.js";
import { ensureAdminAccount, seedDemoCatalogue } from "./db/seed/index.js";
import { prepareDemoMedia } from "./demo-media/prepare-demo-media.js";
import { onlyOnLeader } from "./lib/leases.js";
import { createSourceAdapters } from "./modules/sources/registry.js";
import { scheduleOrphanSweeps, sweepOrphanUploads } from "./modules/uploads/orphan-sweep.js";

/** config -> database -> demo data -> app -> listen; SIGTERM finishes in-flight requests first. */
async function main() {
  const config = loadConfig();
  const logger = pino({
    level: config.logLevel,
    transport: config.dev ? { target: "pino-pretty", options: { translateTime: "SYS:HH:MM:ss" } } : undefined,
  });

  await mkdir(config.mediaDir, { recursive: true });
  await mkdir(config.uploadsDir, { recursive: true });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, pgliteSharedBuffers: config.pgliteSharedBuffers, logger });

  // Charts are aggregated in the background (at start-up, then every CHARTS_REBUILD_INTERVAL_MS).
  // External sites (EXTERNAL_SOURCES): each with its own bounded outbound client, closed on shutdown.
  const external = createSourceAdapters({ userAgent: `DJSearchBot/1.0 (+${config.publicUrl}/)`, logger });
  const sourceAdapters = external.sources.filter((s) => config.externalSources.includes(s.code));
  const app = await buildApp({ config, database, logger, web: true, sourceAdapters });
  await ensureAdminAccount(database, logger);
  if (config.seedDemo) {
    const media = await prepareDemoMedia(config.dataDir);
    await seedDemoCatalogue(database, { media, logger, writes: app.services.writes });
  }
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, "shutting down: finishing in-flight requests");
    const force = setTimeout(() => {
      logger.warn("shutdown timed out; exiting");
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    // A keep-alive socket whose download finishes during shutdown becomes idle after the one
    // sweep server.close() makes; keep sweeping so it doesn't hold the exit for its timeout.
    const sweeper = setInterval(() => app.server.closeIdleConnections(), 100);
    try {
      await app.close();
      clearInterval(sweeper);
      external.close();
      await database.close();
      logger.info("shut down cleanly");
      process.exit(0);
    } catch (err) {
      logger.error({ err }, "shutdown failed");
      process.exit(1);
    }
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  await app.listen({ host: config.host, port: config.port });
  // Collection (ADR 0023): this instance runs collect jobs and queues scheduled ones.
  // Sources may also be configured in the database (generic adapters): the runner only takes
  // jobs of sources this instance has, so with none it only looks now and then.
  if (config.collectIntervalMs > 0) app.services.collector.startBackground();
  // Uploaded files that no suite or block names (a form never saved), older than a day; once
  // across instances (the lease holder: instances share DATA_DIR/uploads, ADR 0040).
  const sweep = () => sweepOrphanUploads({ db: database.db, uploadsDir: config.uploadsDir, logger });
  scheduleOrphanSweeps(onlyOnLeader(app.services.leader, sweep), config.uploadSweepIntervalMs, logger);
  logger.info(`DJ搜索引擎网 is up at ${config.publicUrl} (Node.js ${process.version})`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
