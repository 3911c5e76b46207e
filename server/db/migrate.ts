import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { readMigrationFiles } from "drizzle-orm/migrator";
import type { DbLogger, SqlSession } from "./types.js";

export const MIGRATIONS_FOLDER = fileURLToPath(new URL("./migrations", import.meta.url));
export const MIGRATIONS_TABLE = "app_migrations";
/** Arbitrary constant shared by every instance of this app: "the migrator is running". */
const MIGRATION_LOCK_KEY = 727_501_2025;

export interface Migration {
  tag: string;
  hash: string;
  createdAt: number;
  statements: string[];
}

export class MigrationHashMismatchError extends Error {
  constructor(tag: string) {
    super(
      `Migration ${tag} was changed after it had been applied to this database. ` +
        `Never edit an applied migration: add a new one with \`npm run db:generate\`.`,
    );
    this.name = "MigrationHashMismatchError";
  }
}

/** Reads drizzle-kit's journal and SQL files (hash = sha256 of the file, as drizzle computes it). */
export function loadMigrations(folder = MIGRATIONS_FOLDER): Migration[] {
  const journal = JSON.parse(readFileSync(`${folder}/meta/_journal.json`, "utf8")) as {
    entries: { tag: string; when: number }[];
  };
  const files = readMigrationFiles({ migrationsFolder: folder });
  return journal.entries.map((entry, i) => ({
    tag: entry.tag,
    hash: files[i].hash,
    createdAt: entry.when,
    statements: files[i].sql.map((s) => s.trim()).filter((s) => s.length > 0),
  }));
}

/**
 * Applies pending migrations in journal order, each in its own transaction together with its
 * bookkeeping row. The whole run holds a session advisory lock, so app instances starting at the
 * same time on one PostgreSQL take turns (the second finds nothing left to do). On PGlite the
 * lock is trivially free; the code path is the same.
 */
export async function migrate(
  session: SqlSession,
  logger: DbLogger,
  migrations: Migration[] = loadMigrations(),
): Promise<{ applied: string[] }> {
  await session.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
  try {
    // Created under the lock: concurrent CREATE TABLE IF NOT EXISTS can still collide.
    await session.exec(`create table if not exists ${MIGRATIONS_TABLE} (
      tag text primary key,
      hash text not null,
      created_at bigint not null,
      applied_at timestamptz not null default now()
    )`);
    const rows = await session.query<{ tag: string; hash: string }>(`select tag, hash from ${MIGRATIONS_TABLE}`);
    const done = new Map(rows.map((r) => [r.tag, r.hash]));
    const known = new Set(migrations.map((m) => m.tag));
    const unknown = [...done.keys()].filter((tag) => !known.has(tag));
    if (unknown.length > 0) {
      // An older build on a newer database (e.g. during a rolling deploy): allowed, but visible.
      logger.warn({ unknown }, "database has migrations this build does not know");
    }

    const applied: string[] = [];
    for (const m of migrations) {
      const hash = done.get(m.tag);
      if (hash !== undefined) {
        if (hash !== m.hash) throw new MigrationHashMismatchError(m.tag);
        continue;
      }
      await applyOne(session, m);
      applied.push(m.tag);
      logger.info({ migration: m.tag }, "applied database migration");
    }
    return { applied };
  } finally {
    // If the connection broke, the server already dropped the lock; do not mask the real error.
    await session
      .query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY])
      .catch((err: Error) => logger.warn({ err: err.message }, "could not release the migration lock"));
  }
}

async function applyOne(session: SqlSession, m: Migration): Promise<void> {
  await session.exec("begin");
  try {
    for (const statement of m.statements) await session.exec(statement);
    await session.query(`insert into ${MIGRATIONS_TABLE} (tag, hash, created_at) values ($1, $2, $3)`, [
      m.tag,
      m.hash,
      m.createdAt,
    ]);
    await session.exec("commit");
  } catch (err) {
    await session.exec("rollback");
    throw new Error(`Migration ${m.tag} failed: ${(err as Error).message}`, { cause: err });
  }
}
