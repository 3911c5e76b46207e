import { rm } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import type { DatabaseHandle, DbLogger } from "../../db/types.js";

/**
 * The running server's local control channel (ADR 0042): HTTP over a Unix socket in DATA_DIR,
 * created with mode 0600. It is not on the site's TCP listener, so no visitor, proxy or admin
 * session can reach it; only the server's own OS user (who can read DATA_DIR anyway). Its one
 * job: a consistent archive of the embedded database, which no other process may open meanwhile.
 */
export const CONTROL_SOCKET_FILE = "control.sock";
/** Unix socket paths are limited to ~107 bytes (sun_path). */
const MAX_SOCKET_PATH = 100;

export function controlSocketPath(dataDir: string): string {
  return path.join(dataDir, CONTROL_SOCKET_FILE);
}

export interface ControlSocket {
  path: string;
  close(): Promise<void>;
}

/** Starts the socket for a PGlite database on disk; `null` (with a warning) when it cannot. */
export async function startControlSocket({ dataDir, database, logger }: { dataDir: string; database: DatabaseHandle; logger: DbLogger }): Promise<ControlSocket | null> {
  const archive = database.archiveDataDirTo?.bind(database);
  if (!archive) return null;
  const file = controlSocketPath(dataDir);
  if (Buffer.byteLength(file) > MAX_SOCKET_PATH) {
    logger.warn({ file }, "DATA_DIR's path is too long for the control socket: `npm run backup` works only while the server is stopped");
    return null;
  }
  // A socket left by a killed server: we hold the data directory's lock, so it is not another's.
  await rm(file, { force: true });

  let busy = false;
  const server = http.createServer((req, res) => {
    const answer = (status: number, body: object) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.method !== "POST" || req.url !== "/database-archive") return answer(404, { error: "not found" });
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      raw += chunk;
      if (raw.length > 4096) req.destroy();
    });
    req.on("end", () => {
      void (async () => {
        const target = parseTarget(raw);
        if (!target) return answer(400, { error: "body must be {\"target\": an absolute path}" });
        if (busy) return answer(409, { error: "a backup is already being made" });
        busy = true;
        try {
          const result = await archive(target);
          logger.info({ target, ...result }, "database archived for a backup");
          answer(200, result);
        } catch (err) {
          logger.error({ err: (err as Error).message, target }, "database archive for a backup failed");
          answer(500, { error: (err as Error).message });
        } finally {
          busy = false;
        }
      })();
    });
  });
  // Born 0600: a umask for the bind, not a chmod after it (no moment where others may connect).
  const umask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(file, () => resolve());
    });
  } finally {
    process.umask(umask);
  }
  server.unref();
  return {
    path: file,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function parseTarget(raw: string): string | null {
  try {
    const { target } = JSON.parse(raw) as { target?: unknown };
    return typeof target === "string" && path.isAbsolute(target) ? target : null;
  } catch {
    return null;
  }
}

/** The client side: asks the running server for a tar of its database at `target`. */
export function requestDatabaseArchive(socketPath: string, target: string): Promise<{ bytes: number; heldMs: number }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath, path: "/database-archive", method: "POST", headers: { "content-type": "application/json" } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => {
        const parsed = JSON.parse(body || "{}") as { bytes: number; heldMs: number; error?: string };
        if (res.statusCode === 200) resolve(parsed);
        else reject(new Error(`the running server could not archive its database: ${parsed.error ?? res.statusCode}`));
      });
    });
    req.on("error", reject);
    req.end(JSON.stringify({ target }));
  });
}
