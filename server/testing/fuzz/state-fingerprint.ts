/**
 * A fingerprint of everything a request could change: every table's rows (count and a sum of
 * row hashes, in one query) and the files under the data directory. Two equal fingerprints mean
 * the request left the site as it was (ADR 0043: a refused request changes nothing).
 */
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/sql.js";
import type { AppDatabase } from "../../db/types.js";

export interface StateFingerprint {
  tables: Record<string, string>;
  files: Record<string, number>;
}

/**
 * `settle`: writes the app batches in the background (daily counters, views), done before each
 * fingerprint so that a batch of earlier requests landing later is not taken for this one's.
 */
export async function stateFingerprinter(db: AppDatabase, dataDir: string, settle: () => Promise<unknown>) {
  const names = (
    await queryRows<{ name: string }>(
      db,
      sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
    )
  )
    .map((r) => r.name)
    .filter((n) => /^[a-z_0-9]+$/.test(n));
  const query = sql.raw(
    names
      .map((n) => `select '${n}' as name, count(*)::text || ':' || coalesce(sum(hashtext(t::text)::bigint), 0)::text as digest from "${n}" t`)
      .join(" union all "),
  );

  return async function fingerprint(): Promise<StateFingerprint> {
    await settle();
    const rows = await queryRows<{ name: string; digest: string }>(db, query);
    return { tables: Object.fromEntries(rows.map((r) => [r.name, r.digest])), files: await filesUnder(dataDir) };
  };
}

/** Every file under `dir` (the uploads, media and chunk directories) with its size. */
async function filesUnder(dir: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const walk = async (at: string) => {
    for (const entry of await readdir(at, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) {
        // The database's own files move on every write and are covered by the tables.
        if (entry.name !== "pglite") await walk(full);
      } else out[path.relative(dir, full)] = (await stat(full).catch(() => ({ size: -1 }))).size;
    }
  };
  await walk(dir);
  return out;
}

/** The tables and files that differ between two fingerprints. */
export function differences(a: StateFingerprint, b: StateFingerprint): string[] {
  const diff: string[] = [];
  for (const key of new Set([...Object.keys(a.tables), ...Object.keys(b.tables)])) if (a.tables[key] !== b.tables[key]) diff.push(`table ${key}`);
  for (const key of new Set([...Object.keys(a.files), ...Object.keys(b.files)])) if (a.files[key] !== b.files[key]) diff.push(`file ${key}`);
  return diff;
}
