import { getTableName, is, SQL, sql } from "drizzle-orm";
import { getTableConfig, type PgColumn, type PgTable } from "drizzle-orm/pg-core";
import { queryRows, type RawFields, type RowOf, selectRows } from "./sql.js";
import type { AppDatabase } from "./types.js";

/**
 * Inserts many rows with ONE bind parameter: the rows travel as a JSON array and PostgreSQL
 * unpacks them with json_to_recordset. This sidesteps the 65535-parameter limit of multi-row
 * VALUES, parses fast, and works the same on PGlite and node-postgres (COPY would need a
 * different API on each). Column names and types come from the Drizzle table, so the SQL
 * cannot drift from the schema. All rows must have the same keys as the first one.
 * `returning` is a field map of the table's columns (rows typed and decoded as `selectRows`
 * does); a raw `SQL` list is still taken, its row type then written by the caller.
 */
export async function bulkInsert<T extends PgTable, F extends RawFields>(
  db: Pick<AppDatabase, "execute">,
  table: T,
  rows: T["$inferInsert"][],
  options: { onConflictDoNothing?: boolean; returning: F },
): Promise<RowOf<F>[]>;
export async function bulkInsert<T extends PgTable, R = never>(
  db: Pick<AppDatabase, "execute">,
  table: T,
  rows: T["$inferInsert"][],
  options?: { onConflictDoNothing?: boolean; returning?: SQL },
): Promise<R[]>;
export async function bulkInsert(
  db: Pick<AppDatabase, "execute">,
  table: PgTable,
  rows: Record<string, unknown>[],
  { onConflictDoNothing = false, returning }: { onConflictDoNothing?: boolean; returning?: SQL | RawFields } = {},
): Promise<unknown[]> {
  if (rows.length === 0) return [];
  const byKey = new Map(getTableConfig(table).columns.map((c) => [keyOf(table, c), c]));
  const keys = Object.keys(rows[0]);
  const columns = keys.map((k) => {
    const column = byKey.get(k);
    if (!column) throw new Error(`bulkInsert: ${getTableName(table)} has no column for key "${k}"`);
    return column;
  });
  // Rows keyed by column name, which is what json_to_recordset matches on.
  const payload = JSON.stringify(
    rows.map((row) => {
      const out: Record<string, unknown> = {};
      const r = row as Record<string, unknown>;
      keys.forEach((k, i) => (out[columns[i].name] = r[k] ?? null));
      return out;
    }),
  );
  const names = sql.join(columns.map((c) => sql.identifier(c.name)), sql`, `);
  const shape = sql.join(
    // Safe raw: the type is the schema's column declaration (e.g. `integer`), never input.
    columns.map((c) => sql`${sql.identifier(c.name)} ${sql.raw(c.getSQLType())}`),
    sql`, `,
  );
  const query = sql`insert into ${table} (${names}) select ${names} from json_to_recordset(${payload}::json) as x(${shape})`;
  if (onConflictDoNothing) query.append(sql` on conflict do nothing`);
  if (returning === undefined) return queryRows(db, query);
  if (is(returning, SQL)) return queryRows(db, query.append(sql` returning ${returning}`));
  return selectRows(db, returning, (list) => query.append(sql` returning ${list}`));
}

/** The JS property name under which the table exposes a column. */
function keyOf(table: PgTable, column: PgColumn): string {
  const entry = Object.entries(table).find(([, v]) => v === column);
  if (!entry) throw new Error(`bulkInsert: column ${column.name} not found on its table`);
  return entry[0];
}
