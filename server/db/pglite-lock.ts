import { hostname } from "node:os";
import { readFile, unlink, writeFile } from "node:fs/promises";

/**
 * PGlite has no postmaster: two processes opening one data directory (say `npm start` and
 * `npm run seed`) would both write to it and corrupt it. A lock file beside the directory
 * makes the second one fail with a clear message instead.
 */
export class DataDirInUseError extends Error {
  constructor(dir: string, owner: LockOwner) {
    super(
      `The embedded database ${dir} is in use by process ${owner.pid} on ${owner.host} (since ${owner.since}). ` +
        `PGlite allows one process per data directory: stop that process first (e.g. the running server ` +
        `before \`npm run seed\`), use another DATA_DIR, or set DATABASE_URL to use PostgreSQL.`,
    );
    this.name = "DataDirInUseError";
  }
}

interface LockOwner {
  pid: number;
  host: string;
  /** When the owning process started: tells a live owner from a recycled pid (containers: pid 1). */
  processStart: number;
  since: string;
}

const processStart = Math.round(Date.now() - process.uptime() * 1000);
const heldHere = new Set<string>();

/** Takes the lock for `dir`; resolves to its release function. */
export async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  const file = `${dir}.lock`;
  if (heldHere.has(file)) throw new DataDirInUseError(dir, me());
  for (let attempt = 0; ; attempt++) {
    try {
      await writeFile(file, JSON.stringify(me()), { flag: "wx" });
      heldHere.add(file);
      return async () => {
        heldHere.delete(file);
        await unlink(file).catch(() => undefined);
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const owner = await readOwner(file);
      if (owner && isAlive(owner)) throw new DataDirInUseError(dir, owner);
      if (attempt > 0) throw new DataDirInUseError(dir, owner ?? me());
      // Stale (its process is gone): take it over, once.
      await unlink(file).catch(() => undefined);
    }
  }
}

function me(): LockOwner {
  return { pid: process.pid, host: hostname(), processStart, since: new Date().toISOString() };
}

async function readOwner(file: string): Promise<LockOwner | null> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as LockOwner;
  } catch {
    return null; // unreadable or half-written: treat as stale
  }
}

function isAlive(owner: LockOwner): boolean {
  // Another host name is usually a previous container on the same volume; embedded mode is
  // single-instance by design (scale-out uses PostgreSQL), so treat it as stale.
  if (owner.host !== hostname()) return false;
  if (owner.pid === process.pid) return owner.processStart === processStart;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM"; // exists, owned by someone else
  }
}
