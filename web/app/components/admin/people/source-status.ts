import { formatAdminTime } from "../admin-time";
import { BREAKER_TEXT, type SourceHealth, type SourceRow } from "./source-types";

/** A failure's kind (SourceErrorKind, or the search's own) as the sources screen says it. */
export const ERROR_KIND_TEXT: Record<string, string> = {
  network: "无法连接",
  timeout: "超时",
  blocked: "被源站拒绝",
  http: "源站返回错误",
  layout: "页面结构已变",
  expired: "地址已失效",
  not_found: "不存在",
  forbidden_address: "地址被安全策略拦截",
  unknown: "未知错误",
  error: "未知错误",
};

export interface SourceStatus {
  /** On/off as search, play and collect see it. */
  use: { text: string; color?: string; hint?: string };
  /** The breaker, when the source is in use and has a health record. */
  breaker: { text: string; color: string } | null;
  /** An open breaker's next probe, China time ("2026-11-22 08:05:09"). */
  until: string | null;
  /** The last failure: its kind in words, the message, when. */
  reason: { text: string; message: string; at: string } | null;
}

/**
 * What the sources screen says of one source (issue 21): switched on and in use, on but not in use
 * on this instance (its adapter is missing or its configuration unusable), or off; its breaker,
 * until when an open one skips it, and why (health's last failure).
 */
export function sourceStatus(row: Pick<SourceRow, "enabled" | "inUse"> & Partial<Pick<SourceRow, "adapter">>, health: SourceHealth | undefined): SourceStatus {
  const notInUse =
    row.adapter === "plugin"
      ? "已启用，但提供它的插件已停用或未加载（在来源插件中启用），搜索和采集都不会用到它"
      : "已启用，但本实例没有可用的适配器（配置无法使用或未加载），搜索和采集都不会用到它";
  const use = !row.enabled ? { text: "已停用" } : row.inUse ? { text: "使用中", color: "green" } : { text: "未生效", color: "orange", hint: notInUse };
  if (!health || !row.inUse) return { use, breaker: null, until: null, reason: null };
  const [text, color] = BREAKER_TEXT[health.state];
  const until = health.state === "open" && health.retryAt ? formatAdminTime(Date.parse(health.retryAt) / 1000) : null;
  const reason = health.lastError
    ? { text: ERROR_KIND_TEXT[health.lastError.kind] ?? health.lastError.kind, message: health.lastError.message, at: formatAdminTime(Date.parse(health.lastError.at) / 1000) }
    : null;
  return { use, breaker: { text, color }, until, reason };
}
