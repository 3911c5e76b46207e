import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile, rename, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { loadMigrations } from "../db/migrate.js";
import {
  createPglite,
  openPgliteDatabase,
  openPostgresDatabase,
  pgliteSession,
  pgSession,
  prepareDatabase,
} from "../db/open.js";
import { silentLogger } from "../db/types.js";
import type { DatabaseEngine, DatabaseHandle, DbLogger, SqlSession } from "../db/types.js";

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL names an admin connection. */
export function testEngines(): DatabaseEngine[] {
  return process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];
}

export function testAdminUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error("TEST_DATABASE_URL is not set");
  return url;
}

/** `url` with its database name replaced. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** Runs `fn` on a short-lived admin connection (create/drop databases). */
export async function withAdminClient<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: testAdminUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates an empty database with the given ctype and returns its name (test_<random>). */
export async function createEmptyPostgresDatabase(ctype = "C.UTF-8"): Promise<string> {
  const name = `test_${randomBytes(6).toString("hex")}`;
  const locale = ctype.replaceAll("'", "");
  await withAdminClient((c) =>
    c.query(
      `create database ${name} template template0 encoding 'UTF8' lc_ctype '${locale}' lc_collate '${locale}'`,
    ),
  );
  return name;
}

export async function dropPostgresDatabase(name: string): Promise<void> {
  await withAdminClient((c) => c.query(`drop database if exists ${name} with (force)`));
}

const templates = new Map<"empty" | "migrated", Promise<Blob>>();

/**
 * A PGlite data directory as a tarball: right after initdb ("empty") or migrated. PGlite runs
 * initdb for every new database, which takes several seconds; loading a tarball takes about one.
 * Cached in the OS temp dir, keyed by the PGlite version (and the migrations), so test files
 * (separate workers) and later runs build each one once.
 */
export function pgliteTemplate(kind: "empty" | "migrated"): Promise<Blob> {
  let template = templates.get(kind);
  if (!template) {
    template = buildPgliteTemplate(kind);
    templates.set(kind, template);
  }
  return template;
}

async function buildPgliteTemplate(kind: "empty" | "migrated"): Promise<Blob> {
  // Its package.json is not in "exports": find it beside the resolved entry point.
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  const pkg = await readFile(path.join(path.dirname(entry), "..", "package.json"), "utf8");
  const { version } = JSON.parse(pkg) as { version: string };
  const hash = createHash("sha256").update(version);
  if (kind === "migrated") hash.update(loadMigrations().map((m) => m.hash).join());
  const file = path.join(os.tmpdir(), `djsearch-pglite-${kind}-${hash.digest("hex").slice(0, 16)}.tar`);
  if (existsSync(file)) return new Blob([await readFile(file)]);

  const client = await createPglite(undefined);
  try {
    if (kind === "migrated") await prepareDatabase(pgliteSession(client), silentLogger);
    const blob = await client.dumpDataDir("none");
    // Write then rename: concurrent workers never read a half-written template.
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
    await writeFile(tmp, Buffer.from(await blob.arrayBuffer()));
    await rename(tmp, file);
    return blob;
  } finally {
    await client.close();
  }
}

/**
 * PGlite in the test's own process by default; on its own thread as the server runs it (ADR 0068)
 * with TEST_PGLITE_THREAD=1. A test file makes and closes several databases: on a thread each is
 * another isolate compiling and freeing PGlite's WebAssembly, and that churn met a V8 abort
 * (`Check failed: jit_page_->allocations_.erase(addr) == 1`, nodejs/node#64500) in a full run.
 * The thread's own tests (db/pglite-thread/) and every browser test's server run on the thread.
 */
export function pgliteThreadInTests(): boolean {
  return process.env.TEST_PGLITE_THREAD === "1";
}

/**
 * A fresh, migrated database for one test file: PGlite in memory, or a uniquely named PostgreSQL
 * database (C.UTF-8) that `close()` drops again.
 */
export async function createTestDatabase(
  engine: DatabaseEngine,
  { logger }: { logger?: DbLogger } = {},
): Promise<DatabaseHandle> {
  if (engine === "pglite") {
    const thread = pgliteThreadInTests();
    return openPgliteDatabase(undefined, { logger, loadDataDir: await pgliteTemplate("migrated"), thread, prepared: thread && process.env.TEST_PGLITE_PREPARED !== "0" });
  }
  const name = await createEmptyPostgresDatabase();
  let handle: DatabaseHandle;
  try {
    handle = await openPostgresDatabase(withDatabase(testAdminUrl(), name), { logger, poolMax: 4 });
  } catch (err) {
    await dropPostgresDatabase(name);
    throw err;
  }
  let dropping: Promise<void> | undefined;
  return {
    ...handle,
    close: () =>
      (dropping ??= (async () => {
        await handle.close();
        await dropPostgresDatabase(name);
      })()),
  };
}

export interface CapturedLog {
  level: "debug" | "info" | "warn" | "error";
  obj: object;
  msg?: string;
}

/** A logger that records every line, for asserting what was (or was not) logged. */
export function captureLogger(): DbLogger & { lines: CapturedLog[] } {
  const lines: CapturedLog[] = [];
  const at = (level: CapturedLog["level"]) => (obj: object, msg?: string) => {
    lines.push({ level, obj, msg });
  };
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

/**
 * An empty, unmigrated database reached through one raw connection, for testing the migrator and
 * the start-up checks themselves. PostgreSQL databases are created with `ctype` and dropped on close.
 */
export async function openRawSession(
  engine: DatabaseEngine,
  { ctype = "C.UTF-8" }: { ctype?: string } = {},
): Promise<{ session: SqlSession; url?: string; close(): Promise<void> }> {
  if (engine === "pglite") {
    const client = await createPglite(undefined, await pgliteTemplate("empty"));
    return { session: pgliteSession(client), close: () => client.close() };
  }
  const name = await createEmptyPostgresDatabase(ctype);
  const url = withDatabase(testAdminUrl(), name);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    session: pgSession(client),
    url,
    close: async () => {
      await client.end();
      await dropPostgresDatabase(name);
    },
  };
}
