import { spawn } from "node:child_process";
import { access, mkdir, readdir, rename, rm, stat } from "node:fs/promises";
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
 * Archives a live PGlite data directory into the tar file `target` as a consistent image: inside
 * a transaction of our own, which PGlite's lock makes the only one (queries and other
 * transactions wait), a CHECKPOINT writes every dirty buffer to the files, then `tar` reads them
 * (PGlite's NodeFS writes straight to them). Nothing runs against the database meanwhile, so the
 * archive is the database at one instant and needs no WAL replay. One archive file, not a copy of
 * the directory: a data directory has ~1,200 files, and creating them took ten times longer than
 * writing one tar (4.8 s against 0.5 s for the demo catalogue), all of it with requests waiting.
 */
/** The part of a PGlite client (in process or on its thread) the archive needs. */
interface Transactional {
  transaction(callback: (tx: { exec(text: string): Promise<unknown> }) => Promise<void>): Promise<unknown>;
}

export async function archiveLiveDataDir(client: Transactional, dir: string, target: string): Promise<{ bytes: number; heldMs: number }> {
  await mkdir(path.dirname(target), { recursive: true });
  const staging = `${target}.partial`;
  let heldMs = 0;
  try {
    await client.transaction(async (tx) => {
      const t0 = Date.now();
      await tx.exec("checkpoint");
      await archiveDir(dir, staging);
      heldMs = Date.now() - t0;
    });
    await rename(staging, target);
  } finally {
    await rm(staging, { force: true });
  }
  return { bytes: (await stat(target)).size, heldMs };
}

/** `dir`'s files into the tar file `file` (the system's tar: GNU tar, or bsdtar on macOS and Windows). */
export function archiveDir(dir: string, file: string): Promise<void> {
  // postmaster.pid describes the process that had the directory open, not the copy.
  return run("tar", ["-cf", file, "--exclude", "./postmaster.pid", "-C", dir, "."]);
}

/** A tar file made by `archiveDir` into `dir` (created). */
export async function extractArchive(file: string, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await run("tar", ["-xf", file, "-C", dir]);
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
    let errors = "";
    child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} failed (${code}): ${errors.trim()}`))));
  });
}

/** The bytes of the files under a directory (0 when it does not exist). */
export async function bytesUnder(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const sizes = await Promise.all(
    entries.filter((e) => e.isFile()).map((e) => stat(path.join(e.parentPath, e.name)).then((s) => s.size, () => 0)),
  );
  return sizes.reduce((a, b) => a + b, 0);
}
