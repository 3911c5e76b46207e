import { ADMIN_TABLE_MAX_PAGE_SIZE, ADMIN_TABLE_PAGE_SIZE, adminTableMessages as m, type AdminTableQuery } from "@contracts/admin-table";
import { type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { badRequest } from "../errors.js";

/**
 * Every admin table's query in the back office's conventions (ADMIN-API.md: FastAdmin's
 * `search`, `filter`/`op` JSON strings, `sort`, `order`, `offset`, `limit`, `page`), read into
 * SQL parts over the table's declared columns, with a 400 and a Chinese message for whatever it
 * cannot read (an unknown column, op or sort key, an unreadable value). A table declares its
 * columns once (`defineAdminTable`); the SQL is the repository's.
 */

export type ColumnType = "number" | "text" | "time";
/**
 * A column of the schema (an `alias()`ed table's renders as `"alias"."name"`), or an SQL
 * expression built over such columns: a renamed column fails the build, not the page.
 */
export type ColumnExpr = AnyPgColumn | SQL;
/** A time column as Unix seconds (what the tables show and filter on). */
export const epochOf = (column: ColumnExpr) => sql`extract(epoch from ${column})::bigint`;

export interface AdminTableColumn {
  expr: ColumnExpr;
  type: ColumnType;
  /**
   * The column is never null: sort without `nulls last`, so an ordinary index (read forwards
   * or backwards) serves the order instead of a sort of every matching row.
   */
  notNull?: boolean;
  /** What to sort by when it is not `expr` (a time column sorts by the timestamp its index holds). */
  orderExpr?: ColumnExpr;
}

/** Column declarations by type, over a schema column or an expression of columns (`c.sort`, a subquery). */
export const column = {
  number: (expr: ColumnExpr): AdminTableColumn => ({ expr, type: "number" }),
  text: (expr: ColumnExpr): AdminTableColumn => ({ expr, type: "text" }),
  /** A timestamptz column, shown and filtered as Unix seconds. */
  time: (col: AnyPgColumn): AdminTableColumn => ({ expr: epochOf(col), type: "time" }),
};

export interface AdminTableDefinition {
  /** Filterable and sortable columns by their API names. */
  columns: Record<string, AdminTableColumn>;
  /** The free-text `search` as a condition (e.g. title LIKE, or the id when it is a number). */
  search?: (term: string) => SQL;
  /** The default sort column (default `id`) and the table's id column, which breaks ties. */
  defaultSort?: string;
  tieBreak: ColumnExpr;
  /**
   * The table the columns are read from, as the repository's FROM names it (`sql\`${items} ${i}\``):
   * with it, a query can go on after a given row (`TableQuery.after`, the export's keyset).
   */
  from?: SQL;
}

const KEY = /^[a-zA-Z0-9_\-.]+$/u;
const OPS = new Set(["=", "<>", "!=", "LIKE", "NOT LIKE", "LIKE %...%", ">", ">=", "<", "<=", "FIND_IN_SET", "IN", "IN(...)", "NOT IN", "NOT IN(...)", "BETWEEN", "NOT BETWEEN", "RANGE", "NOT RANGE", "NULL", "NOT NULL"]);

function parseObject(text: string | undefined): Record<string, unknown> {
  if (!text?.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest(m.badFilter);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw badRequest(m.badFilter);
  return value as Record<string, unknown>;
}

/** A time is Unix seconds, or a date and time of the site (China, UTC+8) as the picker writes it. */
function timeValue(text: string): number {
  if (/^\d+$/u.test(text)) return Number(text);
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/u.exec(text);
  if (!match) throw badRequest(m.badFilter);
  const [, y, mo, d, h = "0", mi = "0", s = "0"] = match;
  return Math.floor(Date.UTC(+y!, +mo! - 1, +d!, +h - 8, +mi, +s) / 1000);
}

function typed(type: ColumnType, text: string): string | number {
  if (type === "text") return text;
  if (type === "time") return timeValue(text);
  const n = Number(text);
  if (text.trim() === "" || !Number.isFinite(n)) throw badRequest(m.badFilter);
  return n;
}

function condition(expr: ColumnExpr, type: ColumnType, op: string, raw: string): SQL | undefined {
  // A value of NULL / NOT NULL overrides the op (the original does so).
  if (raw === "NULL" || op === "NULL") return sql`${expr} is null`;
  if (raw === "NOT NULL" || op === "NOT NULL") return sql`${expr} is not null`;
  const list = () => raw.split(",").map((v) => typed(type, v.trim()));
  const text = sql`${expr}::text`;
  switch (op) {
    case "=":
      return sql`${expr} = ${typed(type, raw)}`;
    case "<>":
    case "!=":
      return sql`${expr} <> ${typed(type, raw)}`;
    case "LIKE":
    case "LIKE %...%":
      return sql`${text} ilike ${`%${raw.replace(/[\\%_]/gu, (c) => `\\${c}`)}%`}`;
    case "NOT LIKE":
      return sql`${text} not ilike ${`%${raw.replace(/[\\%_]/gu, (c) => `\\${c}`)}%`}`;
    case ">":
      return sql`${expr} > ${typed(type, raw)}`;
    case ">=":
      return sql`${expr} >= ${typed(type, raw)}`;
    case "<":
      return sql`${expr} < ${typed(type, raw)}`;
    case "<=":
      return sql`${expr} <= ${typed(type, raw)}`;
    case "FIND_IN_SET":
      return sql`${raw} = any(string_to_array(${text}, ','))`;
    case "IN":
    case "IN(...)":
      return sql`${expr} in (${sql.join(list().map((v) => sql`${v}`), sql`, `)})`;
    case "NOT IN":
    case "NOT IN(...)":
      return sql`${expr} not in (${sql.join(list().map((v) => sql`${v}`), sql`, `)})`;
    case "BETWEEN":
    case "NOT BETWEEN":
    case "RANGE":
    case "NOT RANGE": {
      const sides = (op.endsWith("RANGE") ? raw.split(" - ") : raw.split(",")).map((v) => v.trim());
      if (sides.length !== 2 || (sides[0] === "" && sides[1] === "")) throw badRequest(m.badFilter);
      const [from, to] = sides.map((v) => (v === "" ? undefined : typed(type, v)));
      const inside = from === undefined ? sql`${expr} <= ${to}` : to === undefined ? sql`${expr} >= ${from}` : sql`${expr} between ${from} and ${to}`;
      return op.startsWith("NOT") ? sql`not (${inside})` : inside;
    }
  }
  return undefined;
}

export interface TableQuery {
  where: SQL;
  orderBy: SQL;
  limit: number;
  offset: number;
  /**
   * The rows that come after the row whose id (tie-break) is `id` in this order: the next page
   * of a walk through every match without an offset (the sort value is read from that row).
   * Only for tables that declare `from`.
   */
  after?: (id: number) => SQL;
}

/** A table's matches for a walk page by page (exports): the query, and how to read one page of it. */
export interface TableSource<R> {
  query: TableQuery;
  page: (q: TableQuery) => Promise<R[]>;
}

/**
 * Every row of `source`, `size` at a time: each page starts after the last row of the one before
 * (the sort value and id, both in the order's index), so the thousandth page costs what the first
 * did and only one page is held at a time.
 */
export async function* everyRow<R extends { id: number }>(source: TableSource<R>, size = 1000): AsyncGenerator<R> {
  const { query } = source;
  if (!query.after) throw new Error("everyRow needs a table that declares `from`");
  let last: number | undefined;
  for (;;) {
    const where = last === undefined ? query.where : sql`${query.where} and ${query.after(last)}`;
    const rows = await source.page({ ...query, where, limit: size, offset: 0 });
    yield* rows;
    if (rows.length < size) return;
    last = rows[rows.length - 1]!.id;
  }
}

/** A LIKE pattern matching `term` anywhere (its %, _ and \\ taken literally), lower-cased. */
export function containsPattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/gu, (c) => `\\${c}`)}%`;
}

/** The common free-text search: the title contains it, or the id is it. */
export const titleOrIdSearch =
  (title: AnyPgColumn, id: AnyPgColumn) =>
  (term: string): SQL => {
    const like = sql`lower(${title}) like ${containsPattern(term)}`;
    return /^\d{1,9}$/u.test(term) ? sql`(${like} or ${id} = ${Number(term)})` : like;
  };

/**
 * Binds a table's columns: `(query, extra?)` → the query's SQL parts, or a 400 for a key, op,
 * value or sort it cannot read. `extra` adds the table's own conditions (a status shortcut…).
 */
export function defineAdminTable(definition: AdminTableDefinition) {
  const { columns } = definition;
  const defaultSort = definition.defaultSort ?? "id";
  const { tieBreak } = definition;
  return function tableQuery(q: AdminTableQuery, extra: SQL[] = []): TableQuery {
    const parts: SQL[] = [...extra];
    const term = q.search?.trim();
    if (term && definition.search) parts.push(definition.search(term));
    const filter = parseObject(q.filter);
    const ops = parseObject(q.op);
    for (const key of Object.keys(ops)) if (!KEY.test(key)) throw badRequest(m.badFilter);
    for (const [key, value] of Object.entries(filter)) {
      if (!KEY.test(key) || !Object.hasOwn(columns, key)) throw badRequest(m.badFilter);
      if (typeof value !== "string" && typeof value !== "number") throw badRequest(m.badFilter);
      const rawOp = ops[key] ?? "=";
      if (typeof rawOp !== "string") throw badRequest(m.badOp);
      const op = rawOp.trim().toUpperCase();
      if (!OPS.has(op)) throw badRequest(m.badOp);
      const raw = String(value);
      if (raw === "" && op !== "NULL" && op !== "NOT NULL") continue; // an empty search box filters nothing
      const { expr, type } = columns[key]!;
      const cond = condition(expr, type, op, raw);
      if (cond) parts.push(cond);
    }
    const sortKey = q.sort ?? defaultSort;
    if (!Object.hasOwn(columns, sortKey)) throw badRequest(m.badSort);
    const ascending = (q.order ?? "desc").toLowerCase() === "asc";
    const direction = ascending ? sql`asc` : sql`desc`;
    // Ties fall back to the id, so pages never overlap.
    const sortColumn = columns[sortKey]!;
    const nulls = sortColumn.notNull ? sql`` : sql` nulls last`;
    const sortExpr = sortColumn.orderExpr ?? sortColumn.expr;
    const orderBy = sortExpr === tieBreak ? sql`${tieBreak} ${direction}` : sql`${sortExpr} ${direction}${nulls}, ${tieBreak} ${direction}`;
    const { from } = definition;
    const after = from
      ? (id: number): SQL => {
          const cmp = ascending ? sql`>` : sql`<`;
          if (sortExpr === tieBreak) return sql`${tieBreak} ${cmp} ${id}`;
          // The inner FROM names the table as the outer one does: inside, the columns are that row's.
          const last = sql`(select ${sortExpr} from ${from} where ${tieBreak} = ${id})`;
          const pair = sql`(${sortExpr}, ${tieBreak}) ${cmp} (${last}, ${id})`;
          if (sortColumn.notNull) return pair;
          // Nulls come last in either direction.
          return sql`(case when ${last} is null then ${sortExpr} is null and ${tieBreak} ${cmp} ${id} else (${pair} or ${sortExpr} is null) end)`;
        }
      : undefined;
    const limit =
      q.limit === undefined ? ADMIN_TABLE_PAGE_SIZE : q.limit === 0 ? ADMIN_TABLE_MAX_PAGE_SIZE : Math.min(q.limit, ADMIN_TABLE_MAX_PAGE_SIZE);
    const offset = q.page !== undefined && q.offset === undefined ? (q.page - 1) * limit : (q.offset ?? 0);
    return { where: parts.length ? sql.join(parts, sql` and `) : sql`true`, orderBy, limit, offset, ...(after ? { after } : {}) };
  };
}
