import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { type AppDeps, buildApp } from "../app.js";
import { loadConfig } from "../config.js";
import type { DatabaseEngine, DatabaseHandle } from "../db/types.js";
import type { Clock } from "../lib/clock.js";
import { createTestDatabase } from "./test-db.js";

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  dataDir: string;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Serve the built web pages too (browser tests); API tests leave it off. */
  web?: boolean;
  /** Adds probe routes before the app is made ready. */
  extend?: (app: FastifyInstance) => void | Promise<void>;
  /** The server's clock (default: the system's), for tests that move it. */
  clock?: Clock;
  /** Environment settings besides NODE_ENV and DATA_DIR (e.g. short REQUEST_TIMEOUT_MS); no chart rebuilds nor page pre-render unless set. */
  env?: Record<string, string>;
  /** A pino logger to capture the app's log (default: none). */
  logger?: FastifyBaseLogger;
  /** External sources searched beside the catalogue (fixture sites), and their breaker settings. */
  sourceAdapters?: AppDeps["sourceAdapters"];
  sourceBreaker?: AppDeps["sourceBreaker"];
  /** Fixture addresses the sources configured through the admin API (source_sites) may reach. */
  sourceNetwork?: AppDeps["sourceNetwork"];
  /** Source plugins' fixture addresses and sandbox limits. */
  plugins?: AppDeps["plugins"];
  /** Source canaries: who keeps drifted answers, the step timeout (CANARY_INTERVAL_MS is 0 unless `env` sets it). */
  canary?: AppDeps["canary"];
  /** Bounds of recorded answers per source (issue 22). */
  recordedLimits?: AppDeps["recordedLimits"];
  /** A database the caller opened (a second instance on the same PostgreSQL); the caller closes it. */
  database?: DatabaseHandle;
  /** Check every JSON answer against its route's schema (ADR 0057); default on. */
  checkAnswers?: boolean;
}

/** The real application (buildApp) on a fresh test database of `engine` and a throw-away DATA_DIR. */
export async function createTestApp(engine: DatabaseEngine, opts: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "djapp-"));
  const database = opts.database ?? (await createTestDatabase(engine));
  // No background chart rebuilds: tests rebuild when they want charts.
  // Nor a background pre-render of pages: tests that count renders know each one.
  // External sources are the fixture adapters a test hands over (`sourceAdapters`), never the real
  // sites: buildApp builds none itself, and the configuration says so too (ADR 0047).
  const config = loadConfig({ CHARTS_REBUILD_INTERVAL_MS: "0", PRERENDER_SUITES: "0", PRERENDER_CATEGORY_PAGES: "0", EXTERNAL_SOURCES: "none", CANARY_INTERVAL_MS: "0", ...opts.env, NODE_ENV: "test", DATA_DIR: dataDir });
  const app = await buildApp({
    config,
    database,
    logger: opts.logger ?? false,
    web: opts.web,
    clock: opts.clock,
    sourceAdapters: opts.sourceAdapters ?? [],
    sourceBreaker: opts.sourceBreaker,
    sourceNetwork: opts.sourceNetwork,
    plugins: opts.plugins,
    canary: opts.canary,
    ...(opts.recordedLimits ? { recordedLimits: opts.recordedLimits } : {}),
    checkAnswers: opts.checkAnswers ?? true,
  });
  await opts.extend?.(app);
  await app.ready();
  return {
    app,
    database,
    dataDir,
    close: async () => {
      await app.close();
      if (!opts.database) await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
