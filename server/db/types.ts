import type pg from "pg";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as schema from "./schema/index.js";

export type Schema = typeof schema;

/** One Drizzle type for both drivers: repositories never know whether PGlite or pg runs underneath. */
export type AppDatabase = PgDatabase<PgQueryResultHKT, Schema>;

export type DatabaseEngine = "pglite" | "postgres";

export interface DatabaseHandle {
  db: AppDatabase;
  engine: DatabaseEngine;
  /** The queries run on the server's own thread (PGlite in process): a long one holds every request. */
  queriesOnThisThread: boolean;
  /** PGlite on disk only: a consistent tar of its data directory while it runs (ADR 0042). */
  archiveDataDirTo?(target: string): Promise<{ bytes: number; heldMs: number }>;
  /**
   * PostgreSQL only: a new, unconnected client outside the pool, for state that lives in one
   * session (the leader lease's advisory lock, ADR 0040). The caller connects and ends it.
   */
  dedicatedConnection?: () => pg.Client;
  /** Closes the pool or the embedded database; safe to call more than once. */
  close(): Promise<void>;
}

/** The subset of a pino logger the database layer uses (pino's Logger satisfies it). */
export interface DbLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** Raw, driver-level SQL access used by the migrator and the start-up checks (one connection). */
export interface SqlSession {
  /** Runs one parameterised statement and returns its rows. */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Runs one or more statements without parameters (simple protocol). */
  exec(text: string): Promise<void>;
}

export const silentLogger: DbLogger = { debug() {}, info() {}, warn() {}, error() {} };
