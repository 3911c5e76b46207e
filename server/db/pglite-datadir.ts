import { access, cp, mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { DbLogger } from "./types.js";

/**
 * A PGlite data directory becomes visible only once initdb has finished (ADR 0042).
 *
 * After a kill -9, PostgreSQL's own crash recovery (WAL replay, in PGlite's single-user backend
 * too) brings a complete data directory back to its last commit on the next open; what it cannot
 * repair is a directory whose initdb never finished (no `global/pg_control`): PGlite aborts on it.
 * So a new database is created in `<dir>.initdb` and renamed to `<dir>` when complete. A
 * non-empty `<dir>` without pg_control (left by a version before this) is moved aside, never deleted.
 */
export async function ensureInitialisedDataDir(
  dir: string,
  create: (dir: string) => Promise<PGlite>,
  logger: DbLogger,
): Promise<void> {
  if (await isInitialised(dir)) return;
  const entries = await readdir(dir).catch(() => [] as string[]);
  if (entries.length > 0) {
    const aside = `${dir}.incomplete-${Date.now()}`;
    await rename(dir, aside);
    logger.warn({ dir, movedTo: aside }, "the embedded database directory was never fully created (an interrupted first start): moved aside, creating it again");
  }
  const staging = `${dir}.initdb`;
  await rm(staging, { recursive: true, force: true }); // an earlier interrupted initdb
  const t0 = Date.now();
  const client = await create(staging);
  await client.close();
  await rm(dir, { recursive: true, force: true }); // empty (or absent) here
  await rename(staging, path.resolve(dir));
  logger.info({ dir, ms: Date.now() - t0 }, "created the embedded database");
}

/** PG_VERSION and global/pg_control: a directory without them is surely incomplete (a legacy one with both may still be). */
export async function isInitialised(dir: string): Promise<boolean> {
  const present = (file: string) => access(path.join(dir, file)).then(() => true, () => false);
  return (await present("PG_VERSION")) && (await present(path.join("global", "pg_control")));
}

/**
 * Copies a live PGlite data directory to `target` (which must not exist) as a consistent image:
 * inside a transaction of our own, which PGlite's lock makes the only one (queries and other
 * transactions wait), a CHECKPOINT writes every dirty buffer to the files, then the files are
 * copied with the operating system's calls (PGlite's NodeFS writes straight to them). Nothing
 * runs against the database meanwhile, so the copy is the database at one instant, needing no
 * WAL replay. Requests wait for the copy: a few hundred ms for the demo catalogue (ADR 0042).
 */
export async function copyLiveDataDir(client: PGlite, dir: string, target: string): Promise<{ bytes: number; heldMs: number }> {
  await mkdir(path.dirname(target), { recursive: true });
  const staging = `${target}.partial`;
  await rm(staging, { recursive: true, force: true });
  let heldMs = 0;
  await client.transaction(async (tx) => {
    const t0 = Date.now();
    await tx.exec("checkpoint");
    // postmaster.pid describes this process, not the copy.
    await cp(dir, staging, { recursive: true, filter: (from) => path.basename(from) !== "postmaster.pid" });
    heldMs = Date.now() - t0;
  });
  await rename(staging, target);
  return { bytes: await bytesUnder(target), heldMs };
}

/** The bytes of the files under a directory (0 when it does not exist). */
export async function bytesUnder(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const sizes = await Promise.all(
    entries.filter((e) => e.isFile()).map((e) => stat(path.join(e.parentPath, e.name)).then((s) => s.size, () => 0)),
  );
  return sizes.reduce((a, b) => a + b, 0);
}
