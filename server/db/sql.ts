import type { SQL } from "drizzle-orm";
import type { AppDatabase } from "./types.js";

/**
 * Rows of a raw SQL query on either driver (both answer `{ rows }`). Cast aggregates in SQL
 * (`count(*)::int`): node-pg returns int8 as a string, PGlite as a number.
 */
export async function queryRows<T>(db: Pick<AppDatabase, "execute">, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
