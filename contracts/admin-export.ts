/**
 * The back office's CSV exports (ADR 0065): which tables, their addresses and file names, the
 * button's texts. No zod: the browser imports it. Each export takes its table's own list query
 * (search, filter, op, sort, order) and answers every match, not one page.
 */

export const EXPORT_TABLES = {
  suites: { name: "套曲", file: "suites" },
  users: { name: "用户", file: "users" },
  collected: { name: "采集数据", file: "collected" },
  audit: { name: "审计日志", file: "audit" },
} as const;
export type ExportTable = keyof typeof EXPORT_TABLES;

export const exportPath = (table: ExportTable) => `/api/pandaadmin/export/${table}`;

export const exportTexts = {
  button: "导出CSV",
  started: "正在导出…",
  done: "导出完成",
  failed: "导出失败，请稍后重试",
} as const;
