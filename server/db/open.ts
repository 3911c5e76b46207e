import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import { migrate } from "./migrate.js";
import { createPglite } from "./pglite-create.js";
import { PgliteThread } from "./pglite-thread/client.js";
import { archiveLiveDataDir, bytesUnder, ensureInitialisedDataDir } from "./pglite-datadir.js";
import { lockDataDir } from "./pglite-lock.js";
import * as schema from "./schema/index.js";
import { assertTrigramWorks, assertUtf8Ctype } from "./locale-check.js";
import { silentLogger, type AppDatabase, type DatabaseHandle, type DbLogger, type SqlSession } from "./types.js";

export type { AppDatabase, DatabaseHandle, DbLogger } from "./types.js";
export { createPglite, PGLITE_SHARED_BUFFERS } from "./pglite-create.js";

export interface OpenDatabaseOptions {
  /** PostgreSQL connection string; when absent the embedded PGlite in `${dataDir}/db` is used. */
  databaseUrl?: string;
  dataDir: string;
  logger?: DbLogger;
  /** Size of the pg pool (PostgreSQL only). */
  poolMax?: number;
  /** PostgreSQL only: open every connection of the pool before returning (a server's start; see POOL_IDLE_MS). */
  openPool?: boolean;
  /** PGlite's shared_buffers (default PGLITE_SHARED_BUFFERS). */
  pgliteSharedBuffers?: string;
  /** PGlite on a thread of its own (default; PGLITE_THREAD=0 runs it on the server's thread). */
  pgliteThread?: boolean;
  /** There, named prepared statements (default; PGLITE_PREPARED=0: PGlite's own query). */
  pglitePrepared?: boolean;
}

/** Opens the database named by the configuration, refuses unusable locales, and migrates it. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  const logger = options.logger ?? silentLogger;
  if (options.databaseUrl) {
    return openPostgresDatabase(options.databaseUrl, { logger, poolMax: options.poolMax, openPool: options.openPool });
  }
  const dir = path.resolve(options.dataDir, "db");
  await mkdir(dir, { recursive: true });
  const sharedBuffers = options.pgliteSharedBuffers ?? pgliteBuffersFor(await bytesUnder(dir));
  return openPgliteDatabase(dir, { logger, sharedBuffers, thread: options.pgliteThread ?? true, prepared: options.pglitePrepared ?? true });
}

/**
 * The buffer pool for a PGlite database of this size on disk, when PGLITE_SHARED_BUFFERS is
 * unset: an eighth of it, from 16 MB (the demo catalogue, whose memory stays low) to PGlite's
 * own 128 MB (a catalogue of 100,000 suites, whose cold pages came 4x slower from 16 MB).
 */
export function pgliteBuffersFor(databaseBytes: number): string {
  const mb = Math.ceil(databaseBytes / 8 / 1024 / 1024);
  return `${Math.min(128, Math.max(16, mb))}MB`;
}

/** What both ways of running PGlite answer: in this process, or on a thread of its own. */
type PgliteClient = Pick<PGlite, "query" | "exec" | "transaction" | "close"> | PgliteThread;

export interface PgliteOpenOptions {
  logger?: DbLogger;
  /** A `dumpDataDir()` tarball to start from (tests: skips initdb). */
  loadDataDir?: Blob;
  sharedBuffers?: string;
  /** PGlite on a worker thread of its own (ADR 0068; the server's default), or in this thread. */
  thread?: boolean;
  /** On the thread: each distinct statement parsed and planned once (pglite-thread/prepared.ts). */
  prepared?: boolean;
}

/** PGlite on disk at `dir`, or in memory when `dir` is undefined (tests). */
export async function openPgliteDatabase(
  dir: string | undefined,
  { logger = silentLogger, loadDataDir, sharedBuffers, thread = false, prepared = false }: PgliteOpenOptions = {},
): Promise<DatabaseHandle> {
  const unlock = dir ? await lockDataDir(dir) : async () => {};
  let client: PgliteClient | undefined;
  try {
    // A kill during initdb must not leave a directory PGlite cannot open (ADR 0042).
    if (dir && !loadDataDir) await ensureInitialisedDataDir(dir, (staging) => createPglite(staging, undefined, sharedBuffers), logger);
    const opening = thread ? PgliteThread.open({ dir, loadDataDir, sharedBuffers, prepared }) : createPglite(dir, loadDataDir, sharedBuffers);
    client = await opening.catch((err: unknown) => {
      throw dir ? unopenable(dir, err) : err;
    });
    await prepareDatabase(pgliteSession(client), logger);
  } catch (err) {
    await client?.close();
    await unlock();
    throw err;
  }
  logger.info({ engine: "pglite", dir: dir ?? "memory", thread, prepared: thread && prepared }, "database ready");
  // Drizzle's PGlite driver calls `query` and `transaction`, which the thread's client answers alike.
  const db: AppDatabase = drizzlePglite({ client: client as PGlite, schema });
  const opened = client;
  return {
    db,
    engine: "pglite",
    queriesOnThisThread: !thread,
    archiveDataDirTo: dir ? (target) => archiveLiveDataDir(opened, dir, target) : undefined,
    close: once(async () => {
      await opened.close();
      await unlock();
    }),
  };
}

/** PostgreSQL's own crash recovery failed (WAL replay): the way out is a backup (ADR 0042). */
function unopenable(dir: string, err: unknown): Error {
  const reason = err instanceof Error ? err.message : String(err);
  return new Error(
    `The embedded database in ${dir} could not be opened (${reason}). After a kill or a crash it normally recovers by itself; ` +
      `if it does not, it is damaged: move the directory aside and restore a backup (npm run restore -- --from <backup>, README "Backups").`,
    { cause: err },
  );
}

/**
 * PostgreSQL going away (ADR 0040): a new connection that gets no answer gives up after 5 s
 * (a request answers 503 instead of waiting for its timeout), and TCP keep-alive notices a
 * peer that vanished without closing. Refused connections and broken sockets fail at once.
 */
const OUTAGE_BOUNDS = { connectionTimeoutMillis: 5_000, keepAlive: true, keepAliveInitialDelayMillis: 10_000 } as const;

/**
 * An idle pooled connection is closed after this long (pg's default is 10 s). A new PostgreSQL
 * connection costs its fork and authentication, and its first queries load the catalogue
 * caches of every table they touch: with 10 s, a burst after a quiet moment (50 different
 * pages at once after a start) paid that for each of the ten connections inside its requests.
 */
export const POOL_IDLE_MS = 5 * 60_000;

export async function openPostgresDatabase(
  databaseUrl: string,
  { logger = silentLogger, poolMax = 10, openPool = false }: { logger?: DbLogger; poolMax?: number; openPool?: boolean } = {},
): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolMax, application_name: "djsearch", idleTimeoutMillis: POOL_IDLE_MS, ...OUTAGE_BOUNDS });
  // An idle client losing its connection emits 'error' on the pool; unhandled it would kill the process.
  pool.on("error", (err) => logger.error({ err: err.message }, "idle PostgreSQL connection failed"));
  // A connection lost while checked out (a transaction's, between two statements) emits
  // 'error' on its client, whose pool listener is off while it is out: with no listener of its
  // own that is an uncaught exception, and the process dies with PostgreSQL (ADR 0040). Its
  // queries fail on their own and the pool drops it on release; the listener only keeps it quiet.
  pool.on("connect", (client) => {
    client.on("error", (err) => logger.warn({ err: err.message }, "PostgreSQL connection lost"));
  });
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
  if (openPool) await openEveryConnection(pool, poolMax);
  logger.info({ engine: "postgres" }, "database ready");
  const db: AppDatabase = drizzleNodePg({ client: pool, schema });
  return {
    db,
    engine: "postgres",
    queriesOnThisThread: false,
    dedicatedConnection: () => new pg.Client({ connectionString: databaseUrl, application_name: "djsearch-lease", ...OUTAGE_BOUNDS, query_timeout: 5_000 }),
    close: once(() => pool.end()),
  };
}

/**
 * Opens the pool's connections at once (queries in parallel make the pool open one each), each
 * planning a read of the tables every page joins: the first requests after a start find them
 * ready instead of opening them (ADR 0045). A failure here is no failure of the start: the
 * pool opens connections on demand as before.
 */
async function openEveryConnection(pool: pg.Pool, count: number): Promise<void> {
  const clients = await Promise.all(Array.from({ length: count }, () => pool.connect().catch(() => undefined)));
  await Promise.all(
    clients.map(async (client) => {
      if (!client) return;
      try {
        await client.query("explain select 1 from items i join source_sites s on s.code = i.source_site left join categories c on c.id = i.category_id where i.id = 0");
      } catch {
        // (the connection is open all the same; the first request plans the tables itself)
      } finally {
        client.release();
      }
    }),
  );
}

export function pgliteSession(client: PgliteClient): SqlSession {
  return {
    query: async <T>(text: string, params?: unknown[]) => (await client.query<T>(text, params)).rows as T[],
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
