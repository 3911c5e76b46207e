/**
 * What a request changed: a row-level trigger on every table counts the rows written (inserted,
 * updated or deleted), and the files under the data directory are listed with their sizes. Two
 * equal fingerprints mean the request wrote nothing (ADR 0043: a refused request changes
 * nothing). The triggers go on the test's own throw-away database only.
 */
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { sql } from "drizzle-orm";
import { selectRows } from "../../db/sql.js";
import type { AppDatabase } from "../../db/types.js";

export interface StateFingerprint {
  /** Rows written so far, per table. */
  tables: Record<string, number>;
  files: Record<string, number>;
}

const COUNTER_TABLE = "fuzz_rows_written";

/**
 * Installs the counting triggers and answers a function that takes a fingerprint. `settle`:
 * writes the app batches in the background (daily counters, views), done before each fingerprint
 * so that a batch of earlier requests landing later is not taken for this one's.
 */
export async function stateFingerprinter(db: AppDatabase, dataDir: string, settle: () => Promise<unknown>) {
  const names = (
    // Raw: a catalog view (information_schema.tables), not the schema's.
    await selectRows(
      db,
      { name: sql<string>`table_name` },
      (list) => sql`select ${list} from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
    )
  )
    .map((r) => r.name)
    .filter((n) => /^[a-z_0-9]+$/.test(n) && n !== COUNTER_TABLE);
  // DDL takes no parameters: the names go in as identifiers (a constant, and tables filtered to [a-z_0-9]).
  const counter = sql.identifier(COUNTER_TABLE);
  await db.execute(sql`create table if not exists ${counter} (name text primary key, rows bigint not null default 0)`);
  await db.execute(
    sql`create or replace function fuzz_count_row() returns trigger language plpgsql as $$
      begin
        insert into ${counter} (name, rows) values (TG_TABLE_NAME, 1)
          on conflict (name) do update set rows = ${counter}.rows + 1;
        return null;
      end $$`,
  );
  for (const name of names) {
    await db.execute(
      sql`create or replace trigger fuzz_count_row after insert or update or delete on ${sql.identifier(name)} for each row execute function fuzz_count_row()`,
    );
  }

  return async function fingerprint(): Promise<StateFingerprint> {
    await settle();
    // Raw: the test's own counter table, not in the schema.
    const rows = await selectRows(db, { name: sql<string>`name`, rows: sql<string | number>`rows` }, (list) => sql`select ${list} from ${counter}`);
    return { tables: Object.fromEntries(rows.map((r) => [r.name, Number(r.rows)])), files: await filesUnder(dataDir) };
  };
}

/** Every file under `dir` (the uploads, media and chunk directories) with its size. */
async function filesUnder(dir: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const walk = async (at: string) => {
    for (const entry of await readdir(at, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) await walk(full);
      else out[path.relative(dir, full)] = (await stat(full).catch(() => ({ size: -1 }))).size;
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
