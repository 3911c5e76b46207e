import type { SqlSession } from "./types.js";

/** Why we refuse: the message names the cause and the fix, because the symptom (search finds nothing) is silent. */
export class UnsupportedDatabaseLocaleError extends Error {
  constructor(database: string, detail: string) {
    super(
      `Refusing to use PostgreSQL database "${database}": ${detail}. ` +
        `Chinese search relies on pg_trgm, which under a C/POSIX (or non-UTF-8) character type ` +
        `treats Chinese characters as non-word characters, so trigram search on Chinese titles would ` +
        `silently find nothing. Create the database with a UTF-8 character type, for example: ` +
        `CREATE DATABASE ${quoteIdent(database)} TEMPLATE template0 ENCODING 'UTF8' ` +
        `LC_CTYPE 'C.UTF-8' LC_COLLATE 'C.UTF-8'; then point DATABASE_URL at it.`,
    );
    this.name = "UnsupportedDatabaseLocaleError";
  }
}

function quoteIdent(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replaceAll('"', '""')}"`;
}

interface DatabaseLocale {
  name: string;
  encoding: string;
  ctype: string;
}

export async function readDatabaseLocale(session: SqlSession): Promise<DatabaseLocale> {
  // pg_database, not current_setting('lc_ctype'): that setting no longer exists from PostgreSQL 16.
  const [row] = await session.query<DatabaseLocale>(
    `select datname as name, pg_encoding_to_char(encoding) as encoding, datctype as ctype
       from pg_database where datname = current_database()`,
  );
  return row;
}

/** Before migrating: never create tables in a database whose locale breaks Chinese search. */
export async function assertUtf8Ctype(session: SqlSession): Promise<void> {
  const { name, encoding, ctype } = await readDatabaseLocale(session);
  if (encoding.toUpperCase() !== "UTF8") {
    throw new UnsupportedDatabaseLocaleError(name, `its encoding is ${encoding}, not UTF8`);
  }
  if (["C", "POSIX"].includes(ctype.toUpperCase())) {
    throw new UnsupportedDatabaseLocaleError(name, `its lc_ctype is '${ctype}'`);
  }
}

/** After migrating (pg_trgm exists): prove the ctype really classifies Han characters as word characters. */
export async function assertTrigramWorks(session: SqlSession): Promise<void> {
  const [row] = await session.query<{ n: number | null }>(`select array_length(show_trgm('夜曲'), 1) as n`);
  if (!row.n) {
    const { name, ctype } = await readDatabaseLocale(session);
    throw new UnsupportedDatabaseLocaleError(name, `pg_trgm extracts no trigrams from Chinese text (lc_ctype '${ctype}')`);
  }
}
