import { access, cp, mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Config } from "../../config.js";
import { archiveDir, bytesUnder, extractArchive, isInitialised } from "../../db/pglite-datadir.js";
import { DataDirInUseError, lockDataDir } from "../../db/pglite-lock.js";
import { controlSocketPath, requestDatabaseArchive } from "./control-socket.js";

/**
 * `npm run backup` / `npm run restore` (ADR 0042). A backup is a directory:
 *   db.tar         the embedded database's data directory, consistent at one instant
 *   media/ uploads/ copies of DATA_DIR's files
 *   manifest.json  written last: a directory without it is an unfinished backup
 * The database is copied first, the files after it: an upload is written before the row naming
 * it commits, so every file the copied database names is already there to be copied.
 */
export const MANIFEST_FILE = "manifest.json";
const FILE_DIRS = ["media", "uploads"] as const;
const DB_ARCHIVE = "db.tar";

export interface BackupManifest {
  format: 1;
  createdAt: string;
  engine: "pglite" | "postgres";
  /** How the database part was taken: by the running server, or from a stopped site's files; absent on PostgreSQL. */
  database?: { via: "running-server" | "stopped-site"; bytes: number; heldMs: number };
  files: Record<(typeof FILE_DIRS)[number], number>;
}

type Paths = Pick<Config, "dataDir" | "databaseUrl">;
type Say = (line: string) => void;

export async function backup(config: Paths, out: string, say: Say = () => {}): Promise<BackupManifest> {
  const target = path.resolve(out);
  if (await exists(target)) throw new Error(`${target} already exists: name a new directory for the backup`);
  const staging = `${target}.partial`;
  await rm(staging, { recursive: true, force: true });
  // 0700: the archive holds password hashes and session tokens.
  await mkdir(staging, { recursive: true, mode: 0o700 });
  try {
    let database: BackupManifest["database"];
    if (config.databaseUrl) {
      say("DATABASE_URL is set: back the database up with pg_dump (see README, Backups); copying DATA_DIR's files only.");
    } else {
      database = await archiveDatabase(config.dataDir, path.join(staging, DB_ARCHIVE));
      say(`database archived (${mb(database.bytes)}, ${database.via === "running-server" ? `requests held ${database.heldMs} ms` : "site stopped"})`);
    }
    const files = { media: 0, uploads: 0 };
    for (const dir of FILE_DIRS) {
      const from = path.join(config.dataDir, dir);
      if (!(await exists(from))) continue;
      await cp(from, path.join(staging, dir), { recursive: true, filter: (f) => !f.endsWith(".tmp") });
      files[dir] = await bytesUnder(path.join(staging, dir));
      say(`${dir}/ copied (${mb(files[dir])})`);
    }
    const manifest: BackupManifest = { format: 1, createdAt: new Date().toISOString(), engine: config.databaseUrl ? "postgres" : "pglite", database, files };
    await writeFile(path.join(staging, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + "\n");
    await rename(staging, target);
    return manifest;
  } catch (err) {
    await rm(staging, { recursive: true, force: true });
    throw err;
  }
}

/** From a stopped site (its lock is free) directly; from a running one through its control socket. */
async function archiveDatabase(dataDir: string, target: string): Promise<NonNullable<BackupManifest["database"]>> {
  const dir = path.join(dataDir, "db");
  if (!(await isInitialised(dir))) throw new Error(`no embedded database in ${dir}`);
  let unlock: () => Promise<void>;
  try {
    unlock = await lockDataDir(dir);
  } catch (err) {
    if (!(err instanceof DataDirInUseError)) throw err;
    const result = await requestDatabaseArchive(controlSocketPath(dataDir), target).catch((cause: Error) => {
      throw new Error(`${err.message}\nAsking that server for an archive failed too: ${cause.message}`);
    });
    return { via: "running-server", ...result };
  }
  try {
    // Stopped cleanly or killed: either way the files are what the next start would open.
    await archiveDir(dir, target);
    return { via: "stopped-site", bytes: (await stat(target)).size, heldMs: 0 };
  } finally {
    await unlock();
  }
}

/**
 * Puts a backup into DATA_DIR of a stopped site. What was there (db/, media/, uploads/) is moved
 * to DATA_DIR/before-restore-<time>/, never deleted. Refuses while a server holds the database.
 */
export async function restore(config: Paths, from: string, say: Say = () => {}): Promise<{ setAside: string | null }> {
  const source = path.resolve(from);
  const manifest = await readManifest(source);
  if (config.databaseUrl) throw new Error("DATABASE_URL is set: restore PostgreSQL with pg_restore (see README, Backups); this restores the embedded database");
  if (manifest.engine !== "pglite" || !manifest.database) throw new Error(`${source} holds no embedded database (it was taken on PostgreSQL)`);

  await mkdir(config.dataDir, { recursive: true });
  const dbDir = path.join(config.dataDir, "db");
  let unlock: () => Promise<void>;
  try {
    unlock = await lockDataDir(dbDir);
  } catch (err) {
    if (err instanceof DataDirInUseError) throw new Error(`the site is running: stop it before restoring.\n${err.message}`);
    throw err;
  }
  try {
    const aside = path.join(config.dataDir, `before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`);
    let setAside: string | null = null;
    for (const dir of ["db", ...FILE_DIRS]) {
      const current = path.join(config.dataDir, dir);
      if (!(await exists(current)) || (await readdir(current)).length === 0) continue;
      await mkdir(aside, { recursive: true });
      await rename(current, path.join(aside, dir));
      setAside = aside;
    }
    if (setAside) say(`what DATA_DIR held is now in ${setAside}`);
    // Copied under a staging name, renamed when complete: an interrupted restore leaves no half database.
    await rm(`${dbDir}.restoring`, { recursive: true, force: true });
    await extractArchive(path.join(source, DB_ARCHIVE), `${dbDir}.restoring`);
    await rename(`${dbDir}.restoring`, dbDir);
    say("database restored");
    for (const dir of FILE_DIRS) {
      if (!(await exists(path.join(source, dir)))) continue;
      await cp(path.join(source, dir), path.join(config.dataDir, dir), { recursive: true });
      say(`${dir}/ restored`);
    }
    return { setAside };
  } finally {
    await unlock();
  }
}

async function readManifest(dir: string): Promise<BackupManifest> {
  const text = await readFile(path.join(dir, MANIFEST_FILE), "utf8").catch(() => {
    throw new Error(`${dir} is not a finished backup (no ${MANIFEST_FILE})`);
  });
  const manifest = JSON.parse(text) as BackupManifest;
  if (manifest.format !== 1) throw new Error(`${dir}: unknown backup format ${String(manifest.format)}`);
  return manifest;
}

const exists = (p: string) => access(p).then(() => true, () => false);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
