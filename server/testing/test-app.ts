import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../app.js";
import { loadConfig } from "../config.js";
import type { DatabaseEngine, DatabaseHandle } from "../db/types.js";
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
  /** Environment for the app's config (besides NODE_ENV, DATA_DIR and no chart rebuilds). */
  env?: Record<string, string>;
  /** Adds probe routes before the app is made ready. */
  extend?: (app: FastifyInstance) => void | Promise<void>;
}

/** The real application (buildApp) on a fresh test database of `engine` and a throw-away DATA_DIR. */
export async function createTestApp(engine: DatabaseEngine, opts: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "djapp-"));
  const database = await createTestDatabase(engine);
  // No background chart rebuilds: tests rebuild when they want charts.
  const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, CHARTS_REBUILD_INTERVAL_MS: "0", ...opts.env });
  const app = await buildApp({ config, database, logger: false, web: opts.web });
  await opts.extend?.(app);
  await app.ready();
  return {
    app,
    database,
    dataDir,
    close: async () => {
      await app.close();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
