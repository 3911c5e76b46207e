import type { DatabaseHandle } from "../db/types.js";
import { openPostgresDatabase } from "../db/open.js";
import { createTestApp, type TestApp, type TestAppOptions } from "./test-app.js";
import { createEmptyPostgresDatabase, dropPostgresDatabase, testAdminUrl, withDatabase } from "./test-db.js";
import { deleteRedisKeys, uniqueRedisPrefix } from "./test-redis.js";

export interface TwoInstances {
  a: TestApp;
  b: TestApp;
  prefix: string;
  close(): Promise<void>;
}

/**
 * Two instances of the real app as one site (ADR 0039): each with its own connection pool to one
 * fresh PostgreSQL database and its own Redis connections under one fresh prefix, built in this
 * process. `close` drops the database and deletes the prefix's keys.
 */
export async function createTwoInstances(redisUrl: string, opts: Omit<TestAppOptions, "database"> = {}): Promise<TwoInstances> {
  const name = await createEmptyPostgresDatabase();
  const url = withDatabase(testAdminUrl(), name);
  const prefix = uniqueRedisPrefix();
  const handles: DatabaseHandle[] = [];
  const apps: TestApp[] = [];
  const close = async () => {
    for (const app of apps) await app.close();
    for (const handle of handles) await handle.close();
    await dropPostgresDatabase(name);
    await deleteRedisKeys(redisUrl, prefix);
  };
  try {
    for (let i = 0; i < 2; i++) {
      const database = await openPostgresDatabase(url, { poolMax: 4 });
      handles.push(database);
      apps.push(await createTestApp("postgres", { ...opts, database, env: { ...opts.env, REDIS_URL: redisUrl, REDIS_PREFIX: prefix } }));
    }
  } catch (err) {
    await close();
    throw err;
  }
  return { a: apps[0]!, b: apps[1]!, prefix, close };
}
