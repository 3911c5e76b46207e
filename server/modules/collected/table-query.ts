import { collectedMessages as m, type CollectedIndexQuery } from "@contracts/collected";
import { type SQL, sql } from "drizzle-orm";
import { badRequest } from "../../errors.js";

/**
 * The collected-data table's query in the back office's conventions (ADMIN-API.md: FastAdmin's
 * `search`, `filter`/`op` JSON strings, `sort`, `order`, `offset`, `limit`): read into SQL over
 * `collected_items`, with a 400 and a Chinese message for whatever it cannot read.
 */

type ColumnType = "number" | "text" | "time";
const epoch = (column: string) => sql.raw(`extract(epoch from ${column})::bigint`);

/** The table's columns by their API names: filterable and sortable. */
const COLUMNS: Record<string, { expr: SQL; type: ColumnType }> = {
  id: { expr: sql.raw("id"), type: "number" },
  title: { expr: sql.raw("title"), type: "text" },
  source: { expr: sql.raw("source"), type: "text" },
  status: { expr: sql.raw("status"), type: "number" },
  source_url: { expr: sql.raw("source_url"), type: "text" },
  source_id: { expr: sql.raw("source_id"), type: "text" },
  artist: { expr: sql.raw("artist"), type: "text" },
  kind: { expr: sql.raw("kind"), type: "text" },
  playtype: { expr: sql.raw("playtype"), type: "text" },
  source_category: { expr: sql.raw("source_category"), type: "text" },
  source_category_name: { expr: sql.raw("source_category_name"), type: "text" },
  duration: { expr: sql.raw("duration_sec"), type: "number" },
  size: { expr: sql.raw("size_bytes"), type: "number" },
  item_id: { expr: sql.raw("item_id"), type: "number" },
  createtime: { expr: epoch("created_at"), type: "time" },
  processtime: { expr: epoch("processed_at"), type: "time" },
  last_seen: { expr: epoch("last_seen_at"), type: "time" },
};

export const TABLE_PAGE_SIZE = 10;
export const TABLE_MAX_PAGE_SIZE = 100;
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

function condition(expr: SQL, type: ColumnType, op: string, raw: string): SQL | undefined {
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
}

/** The query's SQL parts, or a 400 for a key, op, value or sort it cannot read. */
export function tableQuery(q: CollectedIndexQuery): TableQuery {
  const parts: SQL[] = [];
  if (q.search?.trim()) {
    const term = q.search.trim();
    const id = /^\d{1,9}$/u.test(term) ? Number(term) : null;
    const like = `%${term.toLowerCase().replace(/[\\%_]/gu, (c) => `\\${c}`)}%`;
    parts.push(id === null ? sql`lower(title) like ${like}` : sql`(lower(title) like ${like} or id = ${id})`);
  }
  if (q.status && q.status !== "all") parts.push(sql`status = ${Number(q.status)}`);
  const filter = parseObject(q.filter);
  const ops = parseObject(q.op);
  for (const key of Object.keys(ops)) if (!KEY.test(key)) throw badRequest(m.badFilter);
  for (const [key, value] of Object.entries(filter)) {
    if (!KEY.test(key) || !(key in COLUMNS)) throw badRequest(m.badFilter);
    if (typeof value !== "string" && typeof value !== "number") throw badRequest(m.badFilter);
    const rawOp = ops[key] ?? "=";
    if (typeof rawOp !== "string") throw badRequest(m.badOp);
    const op = rawOp.trim().toUpperCase();
    if (!OPS.has(op)) throw badRequest(m.badOp);
    const raw = String(value);
    if (raw === "" && op !== "NULL" && op !== "NOT NULL") continue; // an empty search box filters nothing
    const { expr, type } = COLUMNS[key]!;
    const cond = condition(expr, type, op, raw);
    if (cond) parts.push(cond);
  }
  const sortKey = q.sort ?? "id";
  if (!(sortKey in COLUMNS)) throw badRequest(m.badSort);
  const direction = (q.order ?? "desc").toLowerCase() === "asc" ? sql.raw("asc") : sql.raw("desc");
  // Ties fall back to the id, so pages never overlap.
  const orderBy = sortKey === "id" ? sql`id ${direction}` : sql`${COLUMNS[sortKey]!.expr} ${direction} nulls last, id ${direction}`;
  const limit = q.limit === undefined ? TABLE_PAGE_SIZE : q.limit === 0 ? TABLE_MAX_PAGE_SIZE : Math.min(q.limit, TABLE_MAX_PAGE_SIZE);
  const offset = q.page !== undefined && q.offset === undefined ? (q.page - 1) * limit : (q.offset ?? 0);
  return { where: parts.length ? sql.join(parts, sql` and `) : sql`true`, orderBy, limit, offset };
}
