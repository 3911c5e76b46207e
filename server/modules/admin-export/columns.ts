import type { AdminUserRow } from "@contracts/admin-people";
import type { AuditRow } from "@contracts/admin-accounts";
import { AUDIT_TARGET_NAMES, auditActionLabel } from "@contracts/audit-labels";
import type { CollectedRow } from "@contracts/collected";
import type { ExportTable } from "@contracts/admin-export";
import type { SuiteListRow } from "@contracts/suite-list-texts";
import { chinaDateTime } from "../suite-list/service.js";

/** A column of an export: its Chinese header and its cell from a row of the table's list API. */
export interface ExportColumn<R> {
  header: string;
  cell: (row: R) => unknown;
}

const time = (seconds: number | null) => (seconds === null ? "" : chinaDateTime(seconds));
const json = (value: unknown) => (value === null || value === undefined ? "" : JSON.stringify(value));

const suites: ExportColumn<SuiteListRow>[] = [
  { header: "编号", cell: (r) => r.id },
  { header: "标题", cell: (r) => r.title },
  { header: "分类", cell: (r) => r.channel?.name ?? "" },
  { header: "分类编号", cell: (r) => r.channel_id },
  { header: "状态", cell: (r) => r.status_text },
  { header: "价格（币）", cell: (r) => r.price },
  { header: "播放次数", cell: (r) => r.views },
  { header: "评论数", cell: (r) => r.comments },
  { header: "发布时间", cell: (r) => r.publishtime_text },
  { header: "添加时间", cell: (r) => time(r.createtime) },
  { header: "更新时间", cell: (r) => time(r.updatetime) },
  { header: "地址", cell: (r) => r.url },
];

const users: ExportColumn<AdminUserRow>[] = [
  { header: "编号", cell: (r) => r.id },
  { header: "用户名", cell: (r) => r.username },
  { header: "邮箱", cell: (r) => r.email },
  { header: "昵称", cell: (r) => r.nickname },
  { header: "金币", cell: (r) => r.coins },
  { header: "VIP到期", cell: (r) => time(r.vip_until) },
  { header: "状态", cell: (r) => r.status_text },
  { header: "注册时间", cell: (r) => time(r.createtime) },
  { header: "下载次数", cell: (r) => r.downloads },
];

const collected: ExportColumn<CollectedRow>[] = [
  { header: "编号", cell: (r) => r.id },
  { header: "标题", cell: (r) => r.title },
  { header: "歌手", cell: (r) => r.artist },
  { header: "来源", cell: (r) => r.source },
  { header: "来源地址", cell: (r) => r.source_url },
  { header: "来源编号", cell: (r) => r.source_id },
  { header: "来源分类", cell: (r) => r.source_category_name ?? r.source_category },
  { header: "类型", cell: (r) => (r.kind === "mix" ? "套曲" : r.kind === "single" ? "单曲" : "") },
  { header: "播放类型", cell: (r) => r.playtype },
  { header: "时长（秒）", cell: (r) => r.duration },
  { header: "状态", cell: (r) => r.status_text },
  { header: "套曲/单曲编号", cell: (r) => r.item_id },
  { header: "采集时间", cell: (r) => time(r.createtime) },
  { header: "处理时间", cell: (r) => time(r.processtime) },
];

const audit: ExportColumn<AuditRow>[] = [
  { header: "编号", cell: (r) => r.id },
  { header: "时间", cell: (r) => time(r.createtime) },
  { header: "管理员", cell: (r) => (r.admin_id === null ? "（站点）" : r.admin_nickname ? `${r.admin_nickname} (${r.admin_username})` : r.admin_username) },
  { header: "操作", cell: (r) => auditActionLabel(r.action) },
  { header: "操作代码", cell: (r) => r.action },
  { header: "对象类型", cell: (r) => (r.target_type ? (AUDIT_TARGET_NAMES[r.target_type] ?? r.target_type) : "") },
  { header: "对象编号", cell: (r) => r.target_id },
  { header: "IP", cell: (r) => r.ip },
  { header: "修改前", cell: (r) => json(r.before) },
  { header: "修改后", cell: (r) => json(r.after) },
  { header: "其他", cell: (r) => (Object.keys(r.detail).length ? json(r.detail) : "") },
];

export interface ExportRowTypes {
  suites: SuiteListRow;
  users: AdminUserRow;
  collected: CollectedRow;
  audit: AuditRow;
}

export const EXPORT_COLUMNS: { [T in ExportTable]: ExportColumn<ExportRowTypes[T]>[] } = { suites, users, collected, audit };
