/**
 * The cluster for tests (ADR 0041): two (or more) instances of the built server on a fresh
 * PostgreSQL database (TEST_DATABASE_URL's server) and Redis (TEST_REDIS_URL, when set), behind
 * Debian's nginx, as `npm run cluster` runs them. Each instance can be stopped (SIGTERM),
 * killed (SIGKILL) and started again on its port; the test reads and writes the database
 * directly, and reads nginx's access log (which instance answered what).
 *
 *   const cluster = await startTestCluster();            // skip the file unless clusterTestsEnabled
 *   await cluster.instance("A").kill();  await cluster.instance("A").start();
 *   const member = await cluster.createMember();          // { id, token, headers }
 *   await cluster.dispose();                              // stops all, drops the database
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { SQL } from "drizzle-orm";
import { Redis } from "ioredis";
import { type AccessLogEntry, parseAccessLog } from "../scripts/cluster/nginx.js";
import { type Cluster, type ClusterOptions, type Instance, startCluster } from "../scripts/cluster/stack.js";
import { type DatabaseHandle, openDatabase } from "../server/db/open.js";
import { users } from "../server/db/schema/index.js";
import { queryRows } from "../server/db/sql.js";
import { sessionService } from "../server/modules/accounts/session-service.js";
import { createTestAdmin } from "../server/testing/admins.js";
import { createEmptyPostgresDatabase, dropPostgresDatabase, testAdminUrl, withDatabase } from "../server/testing/test-db.js";
import { ensureServerBuild } from "./server-build.js";

/** The cluster needs PostgreSQL (two processes cannot share a PGlite directory). */
export const clusterTestsEnabled = !!process.env.TEST_DATABASE_URL;

export interface TestCluster extends Cluster {
  instance(name: string): Instance;
  /** The cluster's database, opened by the test (make members, read what was written). */
  database: DatabaseHandle;
  rows<T>(query: SQL): Promise<T[]>;
  /** A member with a live session (made in the database, as server/testing/users.ts does). */
  createMember(): Promise<{ id: number; token: string; headers: { authorization: string } }>;
  /** A signed-in back-office admin (role super unless told). */
  createAdmin(role?: "super" | "editor"): ReturnType<typeof createTestAdmin>;
  /** nginx's access log so far, parsed (each request with the instance(s) it went to). */
  accessLog(): Promise<AccessLogEntry[]>;
  /** "127.0.0.1:port" of an instance, as the access log names it. */
  upstreamOf(name: string): string;
  /** The instances' REDIS_PREFIX (their keys are deleted by dispose). */
  redisPrefix: string;
  /** Stops everything, drops the database, removes the data directory. */
  dispose(): Promise<void>;
}

/** Deletes every key under `prefix` in TEST_REDIS_URL's Redis (never the others'). */
async function deleteRedisKeys(prefix: string) {
  if (!process.env.TEST_REDIS_URL) return;
  const redis = new Redis(process.env.TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
}

export async function startTestCluster(
  options: Partial<Pick<ClusterOptions, "instances" | "env" | "accessLog" | "maxFails" | "failTimeoutS">> = {},
): Promise<TestCluster> {
  await ensureServerBuild();
  const name = await createEmptyPostgresDatabase();
  const databaseUrl = withDatabase(testAdminUrl(), name);
  const dataDir = await mkdtemp(path.join(tmpdir(), "djcluster-test-"));
  // The machine's Redis is shared: this cluster's keys and channels under a prefix of its own.
  const redisPrefix = `test${process.pid}x${Date.now() % 1e6}:`;
  let cluster: Cluster;
  try {
    cluster = await startCluster({
      databaseUrl,
      redisUrl: process.env.TEST_REDIS_URL || undefined,
      dataDir,
      // The real DJ sites are never asked by tests (ADR 0047).
      externalSources: "none",
      ...options,
      env: { LOG_LEVEL: "info", REDIS_PREFIX: redisPrefix, ...options.env },
    });
  } catch (err) {
    await dropPostgresDatabase(name).catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
  const database = await openDatabase({ databaseUrl, dataDir, poolMax: 4 });
  const sessions = sessionService(database.db);
  let members = 0;
  return {
    ...cluster,
    database,
    instance: (n) => {
      const found = cluster.instances.find((i) => i.name === n);
      if (!found) throw new Error(`no instance ${n}`);
      return found;
    },
    rows: (query) => queryRows(database.db, query),
    createMember: async () => {
      const username = `cluster${process.pid}x${++members}`;
      const [row] = await database.db
        .insert(users)
        .values({ username, email: `${username}@example.test`, passwordHash: "x" })
        .returning({ id: users.id });
      const token = await sessions.createUserSession(row!.id);
      return { id: row!.id, token, headers: { authorization: `Bearer ${token}` } };
    },
    createAdmin: (role = "super") => createTestAdmin(database.db, { role }),
    accessLog: async () => parseAccessLog(await readFile(cluster.nginx.accessLogFile, "utf8").catch(() => "")),
    upstreamOf: (n) => `127.0.0.1:${cluster.instances.find((i) => i.name === n)!.port}`,
    redisPrefix,
    dispose: async () => {
      await cluster.stop();
      await deleteRedisKeys(redisPrefix);
      await database.close();
      await dropPostgresDatabase(name);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
