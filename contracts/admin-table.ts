import { z } from "zod";

/**
 * The back office's table conventions (ADMIN-API.md, FastAdmin's): `search`, `filter` and `op`
 * as JSON strings keyed by column, `sort`, `order`, `offset`, `limit`, optional `page`; the
 * answer is `{total, rows}`. Every admin table's query is this schema, extended with its own
 * shortcuts (a status filter…).
 */

import { adminTableMessages } from "./admin-table-texts";

export * from "./admin-table-texts";

const m = adminTableMessages;

const paging = (min: number, max: number) =>
  z.coerce.number({ error: m.badPaging }).int({ error: m.badPaging }).min(min, { error: m.badPaging }).max(max, { error: m.badPaging });

export const adminTableQuerySchema = z.object({
  search: z.string().max(200).optional().describe("关键字"),
  filter: z.string().max(2000).optional().describe('JSON 字符串, 如 {"channel_id":"51,115"}'),
  op: z.string().max(2000).optional().describe('JSON 字符串, 如 {"channel_id":"IN"}'),
  sort: z.string().max(40).optional().describe("排序字段"),
  order: z.enum(["asc", "desc", "ASC", "DESC"], { error: m.badOrder }).optional(),
  offset: paging(0, 1_000_000).optional(),
  /** 0 means "everything" in the original: capped at the largest page size. */
  limit: paging(0, 100_000).optional(),
  page: paging(1, 100_000).optional(),
});
export type AdminTableQuery = z.infer<typeof adminTableQuerySchema>;

/** `{total, rows}` of any admin table. */
export const adminTableAnswer = <Row extends z.ZodType>(row: Row) => z.object({ total: z.number().int(), rows: z.array(row) });
