import { mkdir } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import { migrate } from "./migrate.js";
import { lockDataDir } from "./pglite-lock.js";
import * as schema from "./schema/index.js";
import { assertTrigramWorks, assertUtf8Ctype } from "./locale-check.js";
import { silentLogger, type AppDatabase, type DatabaseHandle, type DbLogger, type SqlSession } from "./types.js";

export type { AppDatabase, DatabaseHandle, DbLogger } from "./types.js";

export interface OpenDatabaseOptions {
  /** PostgreSQL connection string; when absent the embedded PGlite in `${dataDir}/db` is used. */
  databaseUrl?: string;
  dataDir: string;
  logger?: DbLogger;
  /** Size of the pg pool (PostgreSQL only). */
  poolMax?: number;
}

/** Opens the database named by the configuration, refuses unusable locales, and migrates it. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  const logger = options.logger ?? silentLogger;
  if (options.databaseUrl) {
    return openPostgresDatabase(options.databaseUrl, { logger, poolMax: options.poolMax });
  }
  const dir = path.resolve(options.dataDir, "db");
  await mkdir(dir, { recursive: true });
  return openPgliteDatabase(dir, { logger });
}

/** PGlite on disk at `dir`, or in memory when `dir` is undefined (tests). */
export async function openPgliteDatabase(
  dir: string | undefined,
  { logger = silentLogger, loadDataDir }: { logger?: DbLogger; loadDataDir?: Blob } = {},
): Promise<DatabaseHandle> {
  const unlock = dir ? await lockDataDir(dir) : async () => {};
  let client: PGlite | undefined;
  try {
    client = await createPglite(dir, loadDataDir);
    await prepareDatabase(pgliteSession(client), logger);
  } catch (err) {
    await client?.close();
    await unlock();
    throw err;
  }
  logger.info({ engine: "pglite", dir: dir ?? "memory" }, "database ready");
  const db: AppDatabase = drizzlePglite({ client, schema });
  const opened = client;
  return {
    db,
    engine: "pglite",
    close: once(async () => {
      await opened.close();
      await unlock();
    }),
  };
}

export async function openPostgresDatabase(
  databaseUrl: string,
  { logger = silentLogger, poolMax = 10 }: { logger?: DbLogger; poolMax?: number } = {},
): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolMax, application_name: "djsearch" });
  // An idle client losing its connection emits 'error' on the pool; unhandled it would kill the process.
  pool.on("error", (err) => logger.error({ err: err.message }, "idle PostgreSQL connection failed"));
  try {
    // Checks and migrations on one dedicated connection: the advisory lock is per session.
    const client = await pool.connect();
    try {
      await prepareDatabase(pgSession(client), logger);
    } finally {
      client.release();
    }
  } catch (err) {
    await pool.end();
    throw err;
  }
  logger.info({ engine: "postgres" }, "database ready");
  const db: AppDatabase = drizzleNodePg({ client: pool, schema });
  return { db, engine: "postgres", close: once(() => pool.end()) };
}

/**
 * A PGlite instance with the extensions our migrations need; `undefined` = in memory.
 * A new database runs initdb (several seconds); `loadDataDir` (a `dumpDataDir()` tarball) skips it.
 */
export function createPglite(dir: string | undefined, loadDataDir?: Blob): Promise<PGlite> {
  return PGlite.create(dir ?? "memory://", { extensions: { pg_trgm }, loadDataDir });
}

export function pgliteSession(client: PGlite): SqlSession {
  return {
    query: async <T>(text: string, params?: unknown[]) => (await client.query<T>(text, params)).rows,
    exec: async (text) => {
      await client.exec(text);
    },
  };
}

export function pgSession(client: pg.ClientBase): SqlSession {
  return {
    query: async <T>(text: string, params?: unknown[]) => (await client.query(text, params)).rows as T[],
    exec: async (text) => {
      await client.query(text);
    },
  };
}

/** Locale check, migrations, trigram self-test: done on every open, before the database is handed out. */
export async function prepareDatabase(session: SqlSession, logger: DbLogger): Promise<void> {
  await assertUtf8Ctype(session);
  await migrate(session, logger);
  await assertTrigramWorks(session);
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => (closing ??= fn());
}
