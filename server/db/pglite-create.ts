import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

/**
 * PGlite's buffer pool by default (ADR 0037; PGLITE_SHARED_BUFFERS). PGlite's own, 128 MB, lives
 * inside the WebAssembly heap, which never gives memory back: pages once read stay resident for
 * the life of the process. 16 MB holds the demo catalogue's hot pages; a page read past it comes
 * from the operating system's file cache (shared, not the server's RSS), which costs a large
 * catalogue its cold reads: `openDatabase` sizes it by the database (`pgliteBuffersFor`).
 */
export const PGLITE_SHARED_BUFFERS = "16MB";

/**
 * A PGlite instance with the extensions our migrations need; `undefined` = in memory.
 * A new database runs initdb (several seconds); `loadDataDir` (a `dumpDataDir()` tarball) skips it.
 */
export function createPglite(dir: string | undefined, loadDataDir?: Blob, sharedBuffers = PGLITE_SHARED_BUFFERS): Promise<PGlite> {
  return PGlite.create(dir ?? "memory://", {
    extensions: { pg_trgm },
    loadDataDir,
    startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${sharedBuffers}`],
  });
}
