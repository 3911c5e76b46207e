/**
 * The back office's suite list (issue 12, ADR 0028) without zod: texts and constants the
 * browser imports (zod's object schemas trip the site's CSP).
 */

export const SUITE_BATCH_MAX = 100;
/** Days a deleted suite stays in the recycle bin before it is purged (ADR 0065). */
export const SUITE_BIN_DAYS = 30;

/** The original's content models: 2 = 套曲 (our mixes), 1 = 单曲 (our singles). */
export const SUITE_MODEL_ID = 2;
export const SINGLE_MODEL_ID = 1;

export const suiteListMessages = {
  badIds: "请选择要删除的套曲",
  tooManyIds: `一次最多删除 ${SUITE_BATCH_MAX} 条`,
  badId: "套曲编号无效",
  missing: "套曲不存在",
  missingSome: "部分套曲不存在",
  badModel: "内容模型只能是 1 (单曲) 或 2 (套曲)",
  badStatus: "状态只能是 normal 或 hidden",
  statusOk: "状态已更新",
  statusFailed: "状态更新失败",
  deleteConfirm: "确定删除这条套曲吗？",
  batchDeleteConfirm: (n: number) => `确定删除选中的 ${n} 条套曲吗？`,
  searchPlaceholder: "搜索编号或标题",
  channelPlaceholder: "按分类筛选",
  badTrash: "trash 只能是 0 或 1",
  restoreOk: "还原成功",
  purgeOk: "已彻底删除",
  notInBin: "套曲不在回收站中",
  restoreConfirm: (n: number) => `确定还原选中的 ${n} 条套曲吗？`,
  purgeConfirm: (n: number) => `彻底删除后无法恢复，确定删除选中的 ${n} 条套曲吗？`,
  binTip: `回收站中的套曲不在前台显示，${SUITE_BIN_DAYS} 天后自动彻底删除`,
  /** What is left of a binned suite's time in the recycle bin, under its deletion time. */
  purgeIn: (days: number) => (days <= 0 ? "即将彻底删除" : `${days} 天后彻底删除`),
} as const;

/** items.status → the table's status text (the spec's 正常 / 禁用). */
export const SUITE_STATUS_TEXT = { normal: "正常", hidden: "禁用" } as const;
export type SuiteStatus = keyof typeof SUITE_STATUS_TEXT;

/** One row of GET /pandaadmin/cms/archives/index (the CMS addon's archive row). */
export interface SuiteListRow {
  id: number;
  channel_id: number | null;
  model_id: number;
  title: string;
  image: string;
  diyname: string;
  price: number;
  views: number;
  comments: number;
  weigh: number;
  /** Unix seconds. */
  createtime: number;
  updatetime: number;
  publishtime: number;
  status: SuiteStatus;
  status_text: string;
  /** `Y-m-d H:i:s` in China time. */
  publishtime_text: string;
  /** When it went to the recycle bin (Unix seconds; null outside it), and as `Y-m-d H:i:s` ("" outside it). */
  deletetime: number | null;
  deletetime_text: string;
  url: string;
  channel: { name: string; diyname: string } | null;
}

/** One category of the channel filter. */
export interface SuiteChannelOption {
  id: number;
  name: string;
  parent_id: number | null;
  model_id: number;
}
