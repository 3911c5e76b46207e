import { sql, type SQL } from "drizzle-orm";
import { check, integer, timestamp, type AnyPgColumn } from "drizzle-orm/pg-core";

/** Identity primary key; "by default" so imports and repairs may set ids explicitly. */
export const idColumn = () => integer("id").primaryKey().generatedByDefaultAsIdentity();

/** Every timestamp is `timestamptz`: the site serves one time zone today, but stored instants stay unambiguous. */
export const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const createdAt = () => tstz("created_at").notNull().defaultNow();

export const updatedAt = () =>
  tstz("updated_at")
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

/**
 * CHECK constraint restricting a text column to fixed values. We use text + CHECK rather than
 * pg enums because adding a value to a pg enum cannot run inside a migration transaction.
 */
export function oneOf(name: string, column: AnyPgColumn, values: readonly string[]) {
  const list = values.map((v) => `'${v.replaceAll("'", "''")}'`).join(", ");
  // Safe raw: the values are the schema's constants, quoted above (a CHECK cannot take parameters).
  return check(name, sql`${column} in (${sql.raw(list)})`);
}

/** CHECK that exactly one of the given owner columns is set (user XOR admin). */
export function exactlyOne(name: string, a: AnyPgColumn, b: AnyPgColumn): ReturnType<typeof check> {
  const cond: SQL = sql`(${a} is null) <> (${b} is null)`;
  return check(name, cond);
}
