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

/**
 * The real application (buildApp, no web pages) on a fresh test database of `engine` and a
 * throw-away DATA_DIR. `extend` may add probe routes before the app is made ready.
 */
export async function createTestApp(
  engine: DatabaseEngine,
  extend?: (app: FastifyInstance) => void | Promise<void>,
): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "djapp-"));
  const database = await createTestDatabase(engine);
  const app = await buildApp({ config: loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir }), database, logger: false });
  await extend?.(app);
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
