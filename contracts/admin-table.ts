import { z } from "zod";

/**
 * The back office's table conventions (ADMIN-API.md, FastAdmin's): `search`, `filter` and `op`
 * as JSON strings keyed by column, `sort`, `order`, `offset`, `limit`, optional `page`; the
 * answer is `{total, rows}`. Every admin table's query is this schema, extended with its own
 * shortcuts (a status filter…).
 */

export const ADMIN_TABLE_PAGE_SIZE = 10;
export const ADMIN_TABLE_MAX_PAGE_SIZE = 100;
export const ADMIN_TABLE_PAGE_SIZES = [10, 20, 50, 100] as const;

export const adminTableMessages = {
  badSort: "排序字段无效",
  badOrder: "排序方向只能是 asc 或 desc",
  badFilter: "筛选条件无效",
  badOp: "筛选运算符无效",
  badPaging: "分页参数无效",
  loadFailed: "获取数据失败",
  deleteOk: "删除成功",
  deleteFailed: "删除失败",
  batchDeleteOk: "批量删除成功",
  batchDeleteFailed: "批量删除失败",
  saveFailed: "保存失败，请稍后重试",
} as const;
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
