import { type AnyColumn, Column, is, SQL, sql } from "drizzle-orm";
import type { SelectResultFields } from "drizzle-orm/query-builders/select.types";
import type { AppDatabase } from "./types.js";

/**
 * Rows of a raw SQL query on either driver (both answer `{ rows }`). Cast aggregates in SQL
 * (`count(*)::int`): node-pg returns int8 as a string, PGlite as a number. For reads prefer the
 * builder, or `selectRows` below: a row type written here by hand does not follow the schema.
 */
export async function queryRows<T>(db: Pick<AppDatabase, "execute">, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * A correlated subquery as a builder's select field. Nested on purpose: a select from one table
 * renders its fields' own column chunks without the table (`"id"`), which inside the subquery
 * would name the subquery's table; a nested fragment keeps `"u"."id"`.
 */
export const scalar = <T>(query: SQL): SQL<T> => sql<T>`(${query})`;

/** What a raw select may name: a schema column (its type follows the schema) or a typed `sql<T>` expression. */
export type RawField = AnyColumn | SQL | SQL.Aliased;
export type RawFields = Record<string, RawField>;
/** The row type of `fields`, as Drizzle's builder would derive it. */
export type RowOf<F extends RawFields> = SelectResultFields<F>;
/** `RowOf` with the columns of a left-joined table nullable (as the builder's join types them). */
export type LeftJoined<R, K extends keyof R> = Omit<R, K> & { [P in K]: R[P] | null };

/**
 * A raw statement Drizzle's builder cannot write (a recursive CTE, a lock clause, a plan hint)
 * with its row type derived from the schema: `fields` are column objects and `sql<T>`
 * expressions, `query` receives them as a select list (`col as "key"`, …) to put after its
 * `select`. Values are decoded as the builder decodes them (a column's driver mapping, an
 * expression's `mapWith`), so a renamed or retyped column fails the build here too.
 */
export async function selectRows<F extends RawFields>(db: Pick<AppDatabase, "execute">, fields: F, query: (list: SQL) => SQL): Promise<RowOf<F>[]> {
  const entries = Object.entries(fields);
  const list = sql.join(
    entries.map(([key, field]) => sql`${is(field, SQL.Aliased) ? field.sql : field} as ${sql.identifier(key)}`),
    sql`, `,
  );
  const rows = await queryRows<Record<string, unknown>>(db, query(list));
  return rows.map((row) => {
    const out: Record<string, unknown> = {};
    for (const [key, field] of entries) {
      const value = row[key];
      out[key] = value === null || value === undefined ? null : decode(field, value);
    }
    return out as RowOf<F>;
  });
}

/** `SQL#decoder` is set by `mapWith` and read by the builder; its type keeps it internal. */
type Decoded = { decoder: { mapFromDriverValue(value: unknown): unknown } };

function decode(field: RawField, value: unknown): unknown {
  if (is(field, Column)) return field.mapFromDriverValue(value);
  const expr = is(field, SQL) ? field : field.sql;
  return (expr as unknown as Decoded).decoder.mapFromDriverValue(value);
}
