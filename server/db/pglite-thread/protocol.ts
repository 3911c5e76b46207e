/** Messages between the server's thread and PGlite's own worker thread (ADR 0068). */

/** What a query answers: PGlite's `Results`, minus what cannot cross a thread (a blob). */
export interface ThreadResults {
  rows: unknown[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
}

/** A database error's message and its fields (SQLSTATE `code`, `constraint`, `detail`…). */
export interface ThreadError {
  message: string;
  fields: Record<string, unknown>;
}

export interface OpenOptions {
  /** The data directory, or undefined for an in-memory database. */
  dir?: string;
  /** A `dumpDataDir()` tarball to start from. */
  loadDataDir?: Blob;
  sharedBuffers?: string;
  /** Each distinct statement parsed and planned once (prepared.ts). */
  prepared?: boolean;
}

export type ToThread =
  | { id: number; type: "open"; options: OpenOptions }
  | {
      id: number;
      type: "query";
      text: string;
      params?: unknown[];
      rowMode?: "object" | "array";
      /** Type OIDs whose values come back as PostgreSQL's text (Drizzle's identity parsers). */
      rawTypes?: number[];
    }
  | { id: number; type: "exec"; text: string }
  | { id: number; type: "close" };

export type FromThread = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: ThreadError };
