/**
 * The admin tables' constants and messages without zod (browser code imports this file: zod's
 * object schemas probe `new Function`, which the site's CSP refuses).
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
